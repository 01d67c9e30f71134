def test_user_smoke(emulator, run):
    r = run([
        {"name": "svc", "nms.overlay.user": {"name": "ci-bot", "is_service_user": True, "role": "admin"}},
        {"name": "svc again", "nms.overlay.user": {"name": "ci-bot", "is_service_user": True}},
        {"name": "invite", "nms.overlay.user": {"email": "a@example.com", "name": "A", "role": "user", "auto_groups": []}},
        {"name": "resend", "nms.overlay.user": {"email": "a@example.com", "resend_invitation": True}},
    ], diff=True)
    print(r.stdout)
    assert r.rc == 0
