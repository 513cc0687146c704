from django.urls import path

from judge.pages import desk, groups, problems, solutions, stream, submissions

urlpatterns = [
    path("", problems.problem_list, name="problem-list"),
    path("preparing/", problems.problems_preparing, name="problems-preparing"),
    path("problems/<slug:slug>/", problems.problem_detail, name="problem-detail"),
    path("problems/<slug:slug>/speed/", problems.problem_speed, name="problem-speed"),
    path("problems/<slug:slug>/history/", problems.problem_history, name="problem-history"),
    path("problems/<slug:slug>/review/", problems.problem_review, name="problem-review"),
    # Published solutions (judge/solutions: who may read them is its access.py's to say).
    path("problems/<slug:slug>/solutions/", solutions.solution_list, name="solution-list"),
    path("problems/<slug:slug>/solutions/<int:pk>/", solutions.solution_detail, name="solution-detail"),
    path("problems/<slug:slug>/solutions/<int:pk>/diff/", solutions.solution_diff, name="solution-diff"),
    path("submissions/<int:pk>/publish/", solutions.publish, name="solution-publish"),
    path("solutions/<int:pk>/withdraw/", solutions.withdraw, name="solution-withdraw"),
    path("solutions/<int:pk>/vote/", solutions.vote, name="solution-vote"),
    path("solutions/<int:pk>/moderate/", solutions.moderate, name="solution-moderate"),
    path("submissions/new/<slug:slug>/", submissions.submit, name="submit"),
    path("submissions/<int:pk>/", submissions.submission_detail, name="submission-detail"),
    path("submissions/<int:pk>/status/", submissions.submission_status, name="submission-status"),
    path("submissions/<int:pk>/speed/", submissions.submission_speed, name="submission-speed"),
    # Under ASGI judge/asgi.py answers this path before Django; this view serves WSGI servers.
    path("submissions/<int:pk>/events/", stream.submission_events, name="submission-events"),
    path("submissions/diff/", submissions.submission_diff, name="submission-diff"),
    # The grading desk: a course's staff reading its students' work (judge/pages/desk.py).
    path(
        "courses/<int:pk>/students/<int:student_pk>/problems/<slug:slug>/", desk.student_attempts, name="desk-attempts"
    ),
    path(
        "courses/<int:pk>/students/<int:student_pk>/problems/<slug:slug>/points/",
        desk.adjust_points,
        name="desk-adjust",
    ),
    path("courses/<int:pk>/work/<int:submission_pk>/", desk.student_submission, name="desk-submission"),
    path("courses/<int:pk>/work/diff/", desk.attempts_diff, name="desk-diff"),
    path("courses/<int:pk>/work/<int:submission_pk>/feedback/", desk.leave_feedback, name="desk-feedback"),
    path("courses/<int:pk>/work/<int:submission_pk>/rubric/", desk.mark_rubric, name="desk-rubric"),
    path("courses/<int:pk>/feedback/<int:feedback_pk>/", desk.change_feedback, name="desk-feedback-change"),
    # Groups on an assignment (judge/pages/groups.py).
    path("courses/<int:pk>/assignments/<int:assignment_pk>/groups/", groups.groups_page, name="assignment-groups"),
    path("courses/<int:pk>/assignments/<int:assignment_pk>/group/", groups.my_group, name="assignment-my-group"),
    path(
        "courses/<int:pk>/assignments/<int:assignment_pk>/group/submits/<int:submission_pk>/",
        groups.teammate_submission,
        name="assignment-teammate-submit",
    ),
    path("submissions/feedback/<int:pk>/reply/", submissions.feedback_reply, name="feedback-reply"),
    path("submissions/<int:pk>/report/", submissions.report_problem, name="problem-report"),
]
