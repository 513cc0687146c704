"""``npjudge``: pull a problem, test it locally on the visible examples, submit it and read the verdict.

Exit codes: 0 accepted (or the command succeeded), 1 not accepted, 2 refused or misused, 3 server unreachable."""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from pathlib import Path

from npjudge import config
from npjudge.client import ApiError, Client
from npjudge.render import Painter, Progress, render

ACCEPTED, NOT_ACCEPTED, REFUSED, UNREACHABLE = 0, 1, 2, 3
CLOSED_PIPE = 128 + 13  # as a shell reports a program ended by SIGPIPE


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.command(args)
    except ApiError as error:
        print(f"npjudge: {error}", file=sys.stderr)
        return REFUSED if error.status else UNREACHABLE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader left (`npjudge list | head`): stop quietly.  Python would still flush stdout at exit and print
        # a second error, so stdout now points at /dev/null.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_PIPE


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="npjudge", description=__doc__.splitlines()[0])
    commands = top.add_subparsers(required=True, metavar="COMMAND")

    login = commands.add_parser("login", help="store your token (make one on your profile page)")
    login.add_argument("--server", default=None, help=f"the judge's address (default {config.DEFAULT_SERVER})")
    login.add_argument("--token", default=None, help="the token; asked for when left out (or read from stdin)")
    login.set_defaults(command=cmd_login)

    listing = commands.add_parser("list", help="the problems, with what you solved")
    listing.add_argument("--tag")
    listing.add_argument("--track")
    listing.set_defaults(command=cmd_list)

    pull = commands.add_parser("pull", help="a folder with the starter, statement and examples as .npy")
    pull.add_argument("slug")
    pull.add_argument("--dir", type=Path, default=None, help="where (default: ./SLUG)")
    pull.set_defaults(command=cmd_pull)

    test = commands.add_parser("test", help="run your file on the visible examples here, with the judge's checks")
    test.add_argument("file", type=Path, nargs="?", default=Path("solution.py"))
    test.set_defaults(command=cmd_test)

    submit = commands.add_parser("submit", help="submit your file and wait for the verdict")
    submit.add_argument("file", type=Path)
    submit.add_argument("--problem", help="the slug (default: from problem.json beside the file)")
    submit.add_argument("--run", action="store_true", help="a Run on the visible examples only (not counted)")
    submit.set_defaults(command=cmd_submit)

    export = commands.add_parser("export", help="download your work: a zip holding a git repository of your Submits")
    export.add_argument(
        "--only",
        choices=["all", "accepted"],
        default="all",
        help="all: every Submit with its verdict (default); accepted: the last accepted of each problem",
    )
    export.add_argument(
        "--output", "-o", type=Path, default=None, help="the zip to write (default: npjudge-USERNAME-DATE.zip here)"
    )
    export.set_defaults(command=cmd_export)

    status = commands.add_parser("status", help="a submission's verdict")
    status.add_argument("id", type=int)
    status.set_defaults(command=cmd_status)
    return top


def cmd_login(args) -> int:
    server = (args.server or config.load()["server"]).rstrip("/")
    token = args.token
    if token is None:
        token = getpass.getpass("Token: ") if sys.stdin.isatty() else sys.stdin.readline()
    token = token.strip()
    me = Client(server, token).get("/me")
    path = config.save(server, token)
    print(f"Logged in to {server} as {me['username']}; the token is in {path} (readable by you alone).")
    return ACCEPTED


def cmd_list(args) -> int:
    query = "&".join(f"{key}={value}" for key, value in (("tag", args.tag), ("track", args.track)) if value)
    paint = Painter(sys.stdout)
    for problem in Client().get(f"/problems{'?' + query if query else ''}"):
        mark = paint("✓", "green") if problem["solved"] else ("·" if problem["attempted"] else " ")
        print(f"{mark} {problem['slug']:<36} {problem['difficulty']:<7} {problem['title']}")
    return ACCEPTED


def cmd_pull(args) -> int:
    client = Client()
    problem = client.get(f"/problems/{args.slug}")
    folder = args.dir or Path(args.slug)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "problem.json").write_text(json.dumps(problem, indent=2))
    (folder / "statement.md").write_text(problem["statement_md"])
    if problem["theory_md"]:
        (folder / "theory.md").write_text(problem["theory_md"])
    solution = folder / "solution.py"
    if not solution.exists():  # never overwrite the student's work
        solution.write_text(problem["starter_code"])
    for example in problem["examples"]:
        here = folder / "examples" / example["name"]
        here.mkdir(parents=True, exist_ok=True)
        for value in [*example["inputs"], example["expected"]]:
            if value.get("npy_url"):
                (here / f"{value['name']}.npy").write_bytes(client.download(value["npy_url"]))
    print(
        f"Pulled {problem['slug']} into {folder}/: solution.py (the starter), statement.md, "
        f"{len(problem['examples'])} example(s) as .npy. Edit solution.py, then `npjudge test` in that folder."
    )
    return ACCEPTED


def cmd_test(args) -> int:
    from npjudge.local import EngineMissing, test_locally

    folder = args.file.resolve().parent
    if not (folder / "problem.json").exists():
        print(f"npjudge: no problem.json beside {args.file}; `npjudge pull SLUG` first", file=sys.stderr)
        return REFUSED
    try:
        report = test_locally(folder, read_code(args.file))
    except EngineMissing as error:
        print(f"npjudge: {error}", file=sys.stderr)
        return REFUSED
    render(report)
    return ACCEPTED if report["accepted"] else NOT_ACCEPTED


def cmd_submit(args) -> int:
    slug = args.problem or slug_beside(args.file)
    if not slug:
        print(f"npjudge: which problem? No problem.json beside {args.file}; pass --problem SLUG", file=sys.stderr)
        return REFUSED
    client = Client()
    submission = client.submit(slug, read_code(args.file), "run" if args.run else "submit")
    progress = Progress()
    progress(submission)
    if not submission["final"]:
        submission = client.wait_for_verdict(submission["id"], progress)
    progress.done()
    render(submission)
    return ACCEPTED if submission["accepted"] else NOT_ACCEPTED


def cmd_export(args) -> int:
    output = args.output
    folder = output.parent if output else Path.cwd()
    saved = Client().save(f"/me/export?only={args.only}", folder, output.name if output else None)
    print(f"Saved your work in {saved}: unzip it, then `git log` in its folder.")
    return ACCEPTED


def cmd_status(args) -> int:
    submission = Client().get(f"/submissions/{args.id}")
    if not submission["final"]:
        print(f"#{submission['id']} {submission['problem']}: {submission['status']}")
        return NOT_ACCEPTED
    render(submission)
    return ACCEPTED if submission["accepted"] else NOT_ACCEPTED


def read_code(path: Path) -> str:
    """Sent as the file holds it: the server refuses bytes that are not UTF-8 with its own message."""
    return path.read_bytes().decode("utf-8", "surrogateescape")


def slug_beside(path: Path) -> str | None:
    try:
        return json.loads((path.resolve().parent / "problem.json").read_text())["slug"]
    except (OSError, ValueError, KeyError):
        return None


if __name__ == "__main__":
    sys.exit(main())
