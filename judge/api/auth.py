"""``Authorization: Bearer <token>``: the token's owner, seen as a student.

A token never grants staff powers: the request's user is a copy of the owner with ``is_staff`` and
``is_superuser`` off, so every access helper and service the pages share (drafts, other people's
submissions, the prerequisite lock, rejudges) treats it as a student's. The copy is never saved."""

from __future__ import annotations

import copy

from ninja.errors import HttpError
from ninja.security import HttpBearer

from judge.tokens.models import Scope
from judge.tokens.services import authenticate_token


class TokenAuth(HttpBearer):
    def __init__(self, scope: str = Scope.READ) -> None:
        super().__init__()
        self.scope = scope

    def authenticate(self, request, token: str):
        found = authenticate_token(token)
        if found is None:
            return None
        if not found.allows(self.scope):
            raise HttpError(403, f"this token lacks the '{self.scope}' scope; make one with it on your profile page")
        student = copy.copy(found.user)
        student.is_staff = student.is_superuser = False
        student.save = _never_saved  # type: ignore[method-assign]  # this copy is never written
        request.user = student
        request.access_token = found
        return found


READ = TokenAuth(Scope.READ)
SUBMIT = TokenAuth(Scope.SUBMIT)


def _never_saved(*args, **kwargs) -> None:
    raise RuntimeError("the API's student copy of a user must never be saved (it would drop their staff flag)")
