from django.contrib import admin

from judge.lti.models import LtiContext, LtiLink, Platform, ScorePost, ToolKey


@admin.register(Platform)
class PlatformAdmin(admin.ModelAdmin):
    list_display = ["name", "issuer", "client_id", "enabled"]
    list_filter = ["enabled"]


@admin.register(ToolKey)
class ToolKeyAdmin(admin.ModelAdmin):
    list_display = ["kid", "created_at", "activated_at", "retired_at"]
    exclude = ["private_pem"]  # never shown, not even to staff
    readonly_fields = ["kid", "public_pem", "created_at"]


@admin.register(LtiContext)
class LtiContextAdmin(admin.ModelAdmin):
    list_display = ["title", "platform", "context_id", "course"]


@admin.register(LtiLink)
class LtiLinkAdmin(admin.ModelAdmin):
    list_display = ["resource_link_id", "context", "assignment", "lineitem_url"]


@admin.register(ScorePost)
class ScorePostAdmin(admin.ModelAdmin):
    list_display = ["link", "user", "status", "score_given", "score_maximum", "sent_at", "attempts"]
    list_filter = ["status"]
