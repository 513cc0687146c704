"""The pages that put several apps on one screen (a problem with the student's draft, history and standing;
a submission refused back onto its problem's page). They sit above every app, so no app imports them."""
