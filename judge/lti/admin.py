from django.contrib import admin

from judge.lti import keys, setup
from judge.lti.models import LtiContext, LtiLink, Platform, ScorePost, SetupAudit, ToolKey


@admin.register(Platform)
class PlatformAdmin(admin.ModelAdmin):
    """Saved and deleted through ``judge.lti.setup``, so a change here leaves its audit row too."""

    list_display = ["name", "issuer", "client_id", "enabled"]
    list_filter = ["enabled"]

    def save_model(self, request, obj, form, change) -> None:
        setup.save_platform(obj, request.user, form.changed_data, created=not change)

    def delete_model(self, request, obj) -> None:
        setup.delete_platform(obj, request.user)

    def delete_queryset(self, request, queryset) -> None:
        for platform in queryset:
            setup.delete_platform(platform, request.user)


@admin.register(ToolKey)
class ToolKeyAdmin(admin.ModelAdmin):
    list_display = ["kid", "created_at", "activated_at", "retired_at"]
    exclude = ["private_pem"]  # never shown, not even to staff
    readonly_fields = ["kid", "public_pem", "created_at"]

    def save_model(self, request, obj, form, change) -> None:
        keys.change_key_by_hand(obj, request.user, form.changed_data, created=not change)

    def delete_model(self, request, obj) -> None:
        keys.delete_key(obj, request.user)

    def delete_queryset(self, request, queryset) -> None:
        for key in queryset:
            keys.delete_key(key, request.user)


@admin.register(SetupAudit)
class SetupAuditAdmin(admin.ModelAdmin):
    """Read only: the record of who changed the LMS set-up."""

    list_display = ["at", "user", "action", "summary"]
    list_filter = ["action"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


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
