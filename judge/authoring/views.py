"""Staff pages for authoring problems.  Every view goes through ``staff_only``."""

from __future__ import annotations

import functools

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from engine.package import WRONG_CHECKS, PackageError
from judge.authoring import mining as mining_queries
from judge.authoring import reports, services
from judge.authoring.changes import changes_to_publish
from judge.authoring.forms import PromoteForm, SettingsForm, parse_manifest
from judge.authoring.lifecycle import CannotPublish, passed_run, publish_draft
from judge.authoring.models import Action, AuditEntry, ProblemReport, RejudgeBatch, RejudgeScope, ReportStatus
from judge.authoring.queries import rejudge_candidates
from judge.problems.drafts import MAX_PACKAGE_BYTES
from judge.problems.models import GateRun, Problem, TestSet
from judge.problems.rendering import render_markdown, states_signature
from judge.submissions.models import Submission

# The prose of a package and its manifest, with room to spare; the whole package is larger.
MAX_PREVIEW_BYTES = MAX_PACKAGE_BYTES // 4  # refused above this by settings.REQUEST_BODY_LIMITS


def staff_only(view):
    """Anonymous visitors are sent to log in; signed-in non-staff get 403."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            raise PermissionDenied("Only staff can author problems.")
        return view(request, *args, **kwargs)

    return wrapped


def get_problem_for_author(slug: str) -> Problem:
    return get_object_or_404(Problem, slug=slug)


@staff_only
def home(request):
    problems = Problem.objects.order_by("path_order", "slug")
    reported = reports.open_reports_by_problem()
    return render(
        request,
        "authoring/home.html",
        {
            "problems": [(p, p.gate_runs.first(), reported.get(p.pk, 0)) for p in problems],
            "batches": RejudgeBatch.objects.all()[:5],
        },
    )


@staff_only
def new_problem(request):
    error = ""
    if request.method == "POST":
        params = [p.strip() for p in request.POST.get("params", "").split(",") if p.strip()]
        try:
            problem = services.create_problem(
                request.user,
                request.POST.get("slug", "").strip(),
                request.POST.get("title", ""),
                request.POST.get("function", "").strip(),
                params,
            )
        except PackageError as exc:
            error = str(exc)
        else:
            return redirect("authoring-edit", problem.slug)
    return render(request, "authoring/new.html", {"error": error, "form": request.POST}, status=400 if error else 200)


@staff_only
def problem_overview(request, slug: str):
    problem = get_problem_for_author(slug)
    runs = problem.gate_runs.all()[:10]
    pending = any(run.status != "done" and not run.stalled for run in runs)
    return render(
        request,
        "authoring/problem.html",
        {
            "problem": problem,
            "runs": runs,
            "pending": pending,
            "draft_is_live": problem.published and problem.draft_hash == problem.package_hash,
            "ready_to_publish": ready_to_publish(problem),
            # Made or changed in the browser since problems/ was last imported: only the database holds it.
            "not_in_git": problem.draft_hash != problem.imported_hash,
            "audit": AuditEntry.objects.filter(problem_slug=slug)[:20],
            "open_reports": ProblemReport.objects.filter(problem=problem, status=ReportStatus.OPEN).count(),
        },
    )


@staff_only
def problem_reports(request, slug: str):
    """Reports on a problem from students and courses' staff, newest first; an author answers or closes each."""
    problem = get_problem_for_author(slug)
    error = ""
    if request.method == "POST":
        report = get_object_or_404(ProblemReport, problem=problem, pk=request.POST.get("report") or 0)
        try:
            reports.answer_report(request.user, report, request.POST.get("answer", ""), request.POST.get("status", ""))
        except reports.ReportRefused as refused:
            error = refused.messages[0]
        else:
            return redirect("authoring-reports", slug)
    shown = request.GET.get("status", ReportStatus.OPEN)
    found = ProblemReport.objects.filter(problem=problem).select_related("reporter", "submission", "answered_by")
    if shown in ReportStatus.values:
        found = found.filter(status=shown)
    return render(
        request,
        "authoring/reports.html",
        {"problem": problem, "reports": found[:200], "shown": shown, "statuses": ReportStatus.choices, "error": error},
        status=400 if error else 200,
    )


@staff_only
def edit_problem(request, slug: str):
    problem = get_problem_for_author(slug)
    files, error, saved = dict(problem.draft_files), "", False
    if request.method == "POST":
        files = _posted_files(request.POST, problem.draft_files)
        if request.POST.get("action") != "preview":
            try:
                problem = services.edit_draft(request.user, problem, files)
                saved = True
            except PackageError as exc:
                error = str(exc)
    return render(
        request,
        "authoring/edit.html",
        {
            "problem": problem,
            "files": sorted(files.items(), key=lambda item: _file_order(item[0])),
            "error": error,
            "saved": saved,
            "run": problem.gate_runs.first(),
            **_preview_context(problem, files),
            "fails_with_statuses": sorted(WRONG_CHECKS),
        },
        status=400 if error else 200,
    )


@staff_only
@require_POST
def preview(request, slug: str):
    """The statement, theory and hints of the posted files, rendered as students would see them; saves nothing."""
    problem = get_problem_for_author(slug)
    files = {key[5:]: value.replace("\r\n", "\n") for key, value in request.POST.items() if key.startswith("file:")}
    # Uncached: each keystroke's text would otherwise stay in the students' rendering cache.
    return render(request, "authoring/_preview.html", _preview_context(problem, files, render_markdown.__wrapped__))


def _preview_context(problem: Problem, files: dict[str, str], markdown=render_markdown) -> dict:
    statement = files.get("statement.md", "")
    function = parse_manifest(files.get("problem.toml", "")).get("function")  # the draft's, which may be new
    if not isinstance(function, dict):
        function = {}
    function_name, params = function.get("name", problem.function_name), function.get("params", problem.params)
    if not isinstance(params, list):
        params = []
    return {
        "signature": f"{function_name}({', '.join(str(p) for p in params)})",
        "states_signature": states_signature(statement, str(function_name)),
        "statement_html": markdown(statement),
        "theory_html": markdown(files.get("theory.md", "")),
        "editorial_html": markdown(files.get("editorial.md", "")) if files.get("editorial.md", "").strip() else "",
        "editorial_after_failed": _after_failed(files.get("problem.toml", "")),
        "hints_html": [
            markdown(text) for name, text in sorted(files.items()) if name.startswith("hints/") and name.endswith(".md")
        ],
    }


def _after_failed(manifest: str) -> int | None:
    editorial = parse_manifest(manifest).get("editorial")
    after = editorial.get("after_failed") if isinstance(editorial, dict) else None
    return after if type(after) is int and after > 0 else None


def _posted_files(post, current: dict[str, str]) -> dict[str, str]:
    files = {}
    for key, value in post.items():
        if key.startswith("file:") and post.get(f"delete:{key[5:]}") != "on":
            files[key[5:]] = value.replace("\r\n", "\n")
    new_name = post.get("new_name", "").strip()
    if new_name:
        files[new_name] = post.get("new_text", "").replace("\r\n", "\n")
    return files


def _file_order(name: str) -> tuple:
    order = [
        "problem.toml",
        "statement.md",
        "theory.md",
        "editorial.md",
        "starter.py",
        "solution.py",
        "generator.py",
        "tests.py",
    ]
    return (order.index(name) if name in order else len(order), name)


@staff_only
def edit_settings(request, slug: str):
    problem = get_problem_for_author(slug)
    manifest = parse_manifest(problem.draft_files.get("problem.toml", ""))
    if not manifest:
        return redirect("authoring-edit", slug)  # fix the TOML by hand first
    form, error = SettingsForm(manifest, request.POST or None), ""
    if request.method == "POST" and form.is_valid():
        try:
            services.edit_draft(request.user, problem, problem.draft_files | {"problem.toml": form.manifest_text()})
        except PackageError as exc:
            error = str(exc)
        else:
            return redirect("authoring-problem", slug)
    bad = request.method == "POST" and (error or form.errors)
    return render(
        request,
        "authoring/settings.html",
        {"problem": problem, "form": form, "error": error},
        status=400 if bad else 200,
    )


@staff_only
@require_POST
def run_gate(request, slug: str):
    problem = get_problem_for_author(slug)
    run = services.run_checks(request.user, problem)
    if request.headers.get("HX-Request"):  # the workbench shows the run in place
        return render(request, "authoring/_gate_run.html", {"problem": problem, "run": run, "live": True})
    return redirect("authoring-problem", slug)


@staff_only
def gate_run(request, slug: str, pk: int):
    """One gate run's checks, for the workbench to poll until the run is done."""
    run = get_object_or_404(GateRun, problem__slug=slug, pk=pk)
    return render(request, "authoring/_gate_run.html", {"problem": run.problem, "run": run, "live": True})


def ready_to_publish(problem: Problem) -> bool:
    """The draft's checks passed and it is not what students see."""
    live = problem.published and problem.package_hash == problem.draft_hash
    return not live and passed_run(problem, problem.draft_hash) is not None


@staff_only
def publish(request, slug: str):
    """What publishing the draft changes (files, tests), and the Publish button; POST publishes it."""
    problem, error = get_problem_for_author(slug), ""
    if request.method == "POST":
        try:
            publish_draft(problem, request.POST.get("version", ""), request.user)
        except CannotPublish as exc:
            error = str(exc)
            problem.refresh_from_db()
        else:
            return redirect("authoring-problem", slug)
    run = passed_run(problem, problem.draft_hash)
    gated = TestSet.objects.filter(problem=problem, version=problem.draft_hash).first() if run else None
    return render(
        request,
        "authoring/publish.html",
        {
            "problem": problem,
            "run": run,
            "error": error,
            "ready": ready_to_publish(problem),
            "changes": changes_to_publish(problem, gated) if gated else None,
        },
        status=400 if error else 200,
    )


@staff_only
@require_POST
def unpublish(request, slug: str):
    services.unpublish(request.user, get_problem_for_author(slug))
    return redirect("authoring-problem", slug)


@staff_only
def download(request, slug: str):
    problem = get_problem_for_author(slug)
    services.audit(request.user, Action.DOWNLOAD, slug, "downloaded the draft as a zip")
    response = HttpResponse(services.package_zip(problem), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{slug}.zip"'
    return response


@staff_only
def upload(request):
    error = ""
    if request.method == "POST":
        upload_file = request.FILES.get("package")
        if upload_file is None:
            error = "choose a .zip file to upload"
        else:
            try:
                problem = services.upload_zip(
                    request.user, upload_file.read(services.MAX_ZIP_BYTES + 1), upload_file.name
                )
            except PackageError as exc:
                error = str(exc)
            else:
                return redirect("authoring-problem", problem.slug)
    return render(request, "authoring/upload.html", {"error": error}, status=400 if error else 200)


@staff_only
@require_POST
def rejudge(request):
    scope = request.POST.get("scope", "")
    problem = submission = None
    if scope == RejudgeScope.PROBLEM:
        problem = get_problem_for_author(request.POST.get("slug", ""))
    elif scope == RejudgeScope.SUBMISSION:
        submission = get_object_or_404(Submission, pk=request.POST.get("submission", "0") or 0)
    elif scope != RejudgeScope.EVERYTHING:
        return HttpResponse("unknown rejudge scope", status=400)
    count = rejudge_candidates(scope, problem, submission).count()
    if count > 1 and request.POST.get("confirmed") != "yes":
        return render(
            request,
            "authoring/rejudge_confirm.html",
            {
                "scope": scope,
                "problem": problem,
                "count": count,
                "problem_count": rejudge_candidates(scope, problem).values("problem").distinct().count(),
            },
        )
    batch = services.request_rejudge(request.user, scope, problem, submission)
    return redirect("authoring-rejudge", batch.pk)


@staff_only
def rejudge_status(request, pk: int):
    batch = get_object_or_404(RejudgeBatch, pk=pk)
    return render(request, "authoring/rejudge.html", {"batch": batch, "progress": services.rejudge_progress(batch)})


@staff_only
def audit_log(request):
    return render(request, "authoring/audit.html", {"entries": AuditEntry.objects.select_related("user")[:200]})


@staff_only
def mining(request, slug: str):
    return _mining_page(request, get_problem_for_author(slug))


def _mining_page(request, problem: Problem, posted: dict | None = None, status: int = 200):
    posted = posted or {}
    clusters = mining_queries.mine_clusters(problem)
    return render(
        request,
        "authoring/mining.html",
        {
            "problem": problem,
            "coverage": mining_queries.coverage_of(problem),
            "clusters": [(c, posted.get(c.id) or PromoteForm(prefix=f"c{c.id}")) for c in clusters],
            "published_names": set(problem.wrong_solutions.values_list("name", flat=True)),
            "draft_is_live": problem.published and problem.draft_hash == problem.package_hash,
        },
        status=status,
    )


@staff_only
@require_POST
def promote_cluster(request, slug: str, cluster: str):
    problem = get_problem_for_author(slug)
    found = mining_queries.find_cluster(problem, cluster)
    if found is None:
        return HttpResponse(
            "no such cluster any more: a named misconception explains it now, or its submissions were graded again",
            status=404,
        )
    form = PromoteForm(request.POST, prefix=f"c{cluster}")
    if not found.nameable:
        form.add_error(
            None,
            "this cluster only ran out of time, and a test that timed out returned nothing to "
            "recognise a student's result by; say what makes such code slow in the theory or a hint",
        )
    elif form.is_valid():
        try:
            services.promote_cluster(request.user, problem, found, **form.cleaned_data)
        except PackageError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("authoring-problem", slug)
    return _mining_page(request, problem, {cluster: form}, status=400)
