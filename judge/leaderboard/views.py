from __future__ import annotations

from django.shortcuts import render

from judge.leaderboard.ranking import leaderboard


def standings(request):
    return render(request, "leaderboard/standings.html", {"standings": leaderboard()})
