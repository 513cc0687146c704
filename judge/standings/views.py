from __future__ import annotations

from django.shortcuts import render

from judge.standings import ranking
from judge.standings.models import Period

PAGE_SIZE = 50


def standings(request):
    window = request.GET.get("window", Period.ALL)
    window = window if window in Period.values else Period.ALL
    query = request.GET.get("q", "").strip()[:150]
    board = ranking.board(window)
    me = ranking.standing_of(request.user, window, board)
    pages = max(1, -(-board.total // PAGE_SIZE))
    page = chosen_page(request.GET.get("page", ""), pages, me, window, board)
    rows = (
        ranking.found_rows(query, window, the_board=board)
        if query
        else ranking.page_rows(window, (page - 1) * PAGE_SIZE, PAGE_SIZE, board)
    )
    rows, near = ranking.with_names([rows, ranking.neighbour_rows(me, window, the_board=board) if me else []], board)
    return render(
        request,
        "leaderboard/standings.html",
        {
            "standings": rows,
            "window": window,
            "windows": Period.choices,
            "query": query,
            "board": board,
            "me": me,
            "near": near,
            "page": page,
            "pages": pages,
            "page_links": page_links(page, pages),
            "offset": (page - 1) * PAGE_SIZE,
        },
    )


def chosen_page(asked: str, pages: int, me, window: str, board) -> int:
    """``?page=me`` opens the page with the viewer's row; anything not a page number opens the first."""
    if asked == "me" and me is not None:
        return (ranking.position_of(me, window, board) - 1) // PAGE_SIZE + 1
    try:
        return min(max(int(asked), 1), pages)
    except ValueError:
        return 1


def page_links(page: int, pages: int) -> list[int | None]:
    """The first and last pages and the two around this one; None marks a gap."""
    shown = sorted({1, pages, *range(max(1, page - 2), min(pages, page + 2) + 1)})
    links: list[int | None] = []
    for number in shown:
        if links and number - links[-1] > 1:
            links.append(None)
        links.append(number)
    return links


def problem_firsts(request):
    return render(request, "leaderboard/problems.html", {"firsts": ranking.problem_firsts(), "windows": Period.choices})
