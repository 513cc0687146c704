"""The standings of one recorded verdict, as a PostgreSQL function: the one implementation on PostgreSQL.

``judge.grading.recording.record_verdict`` stores the verdict (the submissions services alone change a
submission's status) and calls this function in the same statement (``v_refuse_rare``: a rare case raises
SQLSTATE JR001, rolling the statement back, and is recorded the long way), or in the same transaction through
``judge.standings.services.apply_verdict``. It locks and recounts the student's state on the problem from their graded submits, carries
the change into the problem's totals and a first solve of a published problem into the student's totals, week,
month and solved level. It returns what the rarer rest needs (a state left with no graded submit, a solve a
rejudge moved or took away), which ``apply_verdict`` finishes in the same transaction. The rules are those of
the rebuild (``rebuild_standings``, and the ORM path on SQLite); tests/test_standings_rebuild.py runs both.

The function was made by the first worker to need it, under a name hashed from its text; it now has one name,
and the text is frozen here: a change to the rules is a new migration with CREATE OR REPLACE.
"""

from django.db import migrations

APPLY_VERDICT = """
CREATE OR REPLACE FUNCTION judge_apply_verdict(v_submission bigint, v_zone text, v_refuse_rare boolean)
RETURNS TABLE (user_id bigint, problem_id bigint, was_first timestamptz, first timestamptz, published boolean,
               graded bigint)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v_user bigint; v_problem bigint; v_state bigint; v_attempts bigint; v_accepted bigint;
    v_was_first timestamptz; v_published boolean; v_was_solved boolean;
    r_graded bigint; r_first timestamptz; r_solved bigint;
BEGIN
    -- Lock (or make) the state row of a Submit's student and problem, as it was; nothing for a Run.
    INSERT INTO leaderboard_userproblemstate AS s (user_id, problem_id, attempts, accepted, first_accepted_at,
                                                   best_verdict)
    SELECT user_id, problem_id, 0, 0, NULL, '' FROM submissions_submission WHERE id = v_submission AND kind = 'submit'
    ON CONFLICT (user_id, problem_id) DO UPDATE SET attempts = s.attempts
    RETURNING s.user_id, s.problem_id, s.id, s.attempts, s.accepted, s.first_accepted_at,
              (SELECT published FROM problems_problem WHERE id = s.problem_id)
    INTO v_user, v_problem, v_state, v_attempts, v_accepted, v_was_first, v_published;
    IF NOT FOUND THEN
        RETURN;  -- a Run
    END IF;
    v_was_solved := v_was_first IS NOT NULL;
    -- Each statement of a PL/pgSQL function sees what was committed before it began, so the recount,
    -- which starts after the lock is held, counts every verdict of this student and problem.
    WITH fig AS (
        SELECT count(*) AS graded, count(*) FILTER (WHERE verdict = 'accepted') AS ok,
               min(created_at) FILTER (WHERE verdict = 'accepted') AS first,
               min(CASE verdict WHEN 'accepted' THEN 0 WHEN 'wrong_answer' THEN 1 WHEN 'time_limit_exceeded' THEN 2
                   WHEN 'memory_limit_exceeded' THEN 3 WHEN 'output_limit_exceeded' THEN 4
                   WHEN 'runtime_error' THEN 5 WHEN 'compile_error' THEN 6 WHEN 'internal_error' THEN 7
                   ELSE 8 END) AS best_rank
        FROM submissions_submission
        WHERE submissions_submission.user_id = v_user AND submissions_submission.problem_id = v_problem
          AND kind = 'submit' AND status = 'done'
    ), kept AS (
        UPDATE leaderboard_userproblemstate AS s
        SET attempts = fig.graded, accepted = fig.ok, first_accepted_at = fig.first,
            best_verdict = CASE fig.best_rank WHEN 0 THEN 'accepted' WHEN 1 THEN 'wrong_answer'
                WHEN 2 THEN 'time_limit_exceeded' WHEN 3 THEN 'memory_limit_exceeded'
                WHEN 4 THEN 'output_limit_exceeded' WHEN 5 THEN 'runtime_error' WHEN 6 THEN 'compile_error'
                WHEN 7 THEN 'internal_error' ELSE '' END
        FROM fig WHERE s.id = v_state
        RETURNING fig.graded, fig.ok, fig.first
    ), delta AS (
        SELECT kept.graded - v_attempts AS graded, kept.ok - v_accepted AS ok,
               (kept.first IS NOT NULL)::int - v_was_solved::int AS solvers,
               CASE WHEN NOT v_was_solved AND kept.first IS NOT NULL THEN kept.first END AS first
        FROM kept
    ), totals AS (
        INSERT INTO leaderboard_problemtotals AS t (problem_id, submissions, accepted, solvers, first_solver_id,
                                                    first_solved_at)
        SELECT v_problem, GREATEST(delta.graded, 0), GREATEST(ok, 0), GREATEST(solvers, 0),
               CASE WHEN delta.first IS NOT NULL THEN v_user END, delta.first FROM delta
        WHERE delta.graded <> 0 OR ok <> 0 OR solvers <> 0
        ON CONFLICT (problem_id) DO UPDATE SET  -- the deltas themselves: the inserted row may not be negative
            submissions = t.submissions + (SELECT delta.graded FROM delta),
            accepted = t.accepted + (SELECT ok FROM delta), solvers = t.solvers + (SELECT solvers FROM delta),
            first_solver_id = CASE WHEN excluded.first_solved_at IS NOT NULL AND (t.first_solved_at IS NULL
                OR t.first_solved_at > excluded.first_solved_at OR (t.first_solved_at = excluded.first_solved_at
                AND t.first_solver_id > excluded.first_solver_id)) THEN excluded.first_solver_id
                ELSE t.first_solver_id END,
            first_solved_at = CASE WHEN excluded.first_solved_at IS NOT NULL AND (t.first_solved_at IS NULL
                OR t.first_solved_at > excluded.first_solved_at OR (t.first_solved_at = excluded.first_solved_at
                AND t.first_solver_id > excluded.first_solver_id)) THEN excluded.first_solved_at
                ELSE t.first_solved_at END
    )
    SELECT kept.graded, kept.first INTO r_graded, r_first FROM kept;
    IF v_refuse_rare AND (r_graded = 0 OR (v_was_solved AND r_first IS DISTINCT FROM v_was_first)) THEN
        RAISE EXCEPTION 'a solve moved: the standings take the long way' USING ERRCODE = 'JR001';
    END IF;
    IF NOT v_was_solved AND r_first IS NOT NULL AND v_published THEN  -- a first solve: added, not recounted
        INSERT INTO leaderboard_usertotals AS t (user_id, solved, reached_at) VALUES (v_user, 1, r_first)
        ON CONFLICT (user_id) DO UPDATE SET solved = t.solved + 1,
            reached_at = GREATEST(t.reached_at, excluded.reached_at)
        RETURNING t.solved INTO r_solved;
        INSERT INTO leaderboard_periodtotals AS t (user_id, "window", starts_at, solved, reached_at)
        VALUES (v_user, 'month', date_trunc('month', r_first, v_zone), 1, r_first),
               (v_user, 'week', date_trunc('week', r_first, v_zone), 1, r_first)
        ON CONFLICT (user_id, "window", starts_at) DO UPDATE SET
            solved = t.solved + 1, reached_at = GREATEST(t.reached_at, excluded.reached_at);
        INSERT INTO leaderboard_solvedlevel AS l (solved, users)
        SELECT level, users FROM (VALUES (r_solved - 1, -1), (r_solved, 1)) AS moved (level, users) WHERE level > 0
        ON CONFLICT (solved) DO UPDATE SET users = l.users + excluded.users;
    END IF;
    RETURN QUERY SELECT v_user, v_problem, v_was_first, r_first, v_published, r_graded;
END $fn$
"""

DROP_RUNTIME_MADE = """
DO $$ DECLARE f record; BEGIN
    FOR f IN SELECT oid::regprocedure AS sig FROM pg_proc WHERE proname ~ '^judge_record_verdict_' LOOP
        EXECUTE 'DROP FUNCTION ' || f.sig;
    END LOOP;
END $$
"""


def install(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(APPLY_VERDICT)
        schema_editor.execute(DROP_RUNTIME_MADE)


def remove(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS judge_apply_verdict(bigint, text, boolean)")


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboard", "0002_standings_from_existing_submissions"),
        ("submissions", "0003_submission_custom_inputs"),
    ]

    operations = [migrations.RunPython(install, remove, elidable=False)]
