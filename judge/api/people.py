"""You (progress, solved) and the leaderboard, with the same windows and pages as the site's."""

from __future__ import annotations

from typing import Literal

from ninja import Field, Query, Router, Schema

from judge.api.auth import READ
from judge.api.errors import REFUSALS
from judge.exports import history
from judge.exports.streaming import download
from judge.standings import ranking
from judge.standings.models import Period
from judge.standings.progress import progress_of

router = Router(tags=["people"], auth=READ)
PAGE_SIZE = 50  # the leaderboard page's


class SolvedOut(Schema):
    problem: str
    title: str
    at: str


class AttemptedOut(Schema):
    problem: str
    attempts: int
    best_verdict: str


class TagOut(Schema):
    tag: str
    solved: int
    total: int


class Me(Schema):
    username: str
    rank: int | None
    ranked: int
    solved: list[SolvedOut]
    attempted: list[AttemptedOut]
    by_tag: list[TagOut]


class StandingOut(Schema):
    rank: int
    name: str
    solved: int
    tied: bool
    me: bool


class Leaderboard(Schema):
    window: str
    page: int
    pages: int
    total: int
    rows: list[StandingOut]
    me: StandingOut | None


class BoardQuery(Schema):
    window: Literal["all", "month", "week"] = "all"
    page: int = Field(1, ge=1, le=100_000)


@router.get("/me", response={200: Me, **REFUSALS}, url_name="api-me")
def me(request):
    """Your progress, as your profile page shows it."""
    p = progress_of(request.user)
    return {
        "username": request.user.username,
        "rank": p.rank,
        "ranked": p.ranked,
        "solved": [{"problem": s.problem.slug, "title": s.problem.title, "at": s.at.isoformat()} for s in p.solved],
        "attempted": [
            {"problem": a.problem.slug, "attempts": a.attempts, "best_verdict": a.best_verdict} for a in p.attempted
        ],
        "by_tag": [{"tag": t.tag, "solved": t.solved, "total": t.total} for t in p.by_tag],
    }


@router.get("/leaderboard", response={200: Leaderboard, **REFUSALS}, url_name="api-leaderboard")
def leaderboard(request, query: Query[BoardQuery]):
    """One page of the standings in a window (all time, this month, this week); names hidden as on the site."""
    window = Period(query.window)
    board = ranking.board(window)
    pages = max(1, -(-board.total // PAGE_SIZE))
    page = min(query.page, pages)
    mine = ranking.standing_of(request.user, window, board)
    rows, near = ranking.with_names(
        [
            ranking.page_rows(window, (page - 1) * PAGE_SIZE, PAGE_SIZE, board),
            ranking.neighbour_rows(mine, window, the_board=board) if mine else [],
        ],
        board,
    )
    me_row = next((s for s in near if s.user_id == request.user.pk), None)
    return {
        "window": window.value,
        "page": page,
        "pages": pages,
        "total": board.total,
        "rows": [standing(s, request.user.pk) for s in rows],
        "me": standing(me_row, request.user.pk) if me_row else None,
    }


def standing(s: ranking.Standing, user_id: int) -> dict:
    return {"rank": s.rank, "name": s.shown_name, "solved": s.solved, "tied": s.tied, "me": s.user_id == user_id}


class ExportQuery(Schema):
    only: Literal["all", "accepted"] = Field(
        "all", description="all: every Submit, with its verdict; accepted: the last accepted Submit of each problem"
    )


@router.get(
    "/me/export",
    response={**REFUSALS},
    url_name="api-me-export",
    openapi_extra={
        "responses": {
            200: {
                "description": "your work as a zip holding a git repository: a folder per problem (statement.md, "
                "solution.py), a commit per Submit in time order with its verdict; streamed",
                "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}},
            }
        }
    },
)
def export(request, query: Query[ExportQuery]):
    """Download your work, as the profile page's "Download my work" does."""
    return download(request, history.export_work(request.user, query.only))
