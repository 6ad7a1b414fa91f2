"""Realistic fake secrets and look-alikes, each in the kind of text a transcript holds.

SECRETS: (kind of position, the line as it appears, the secret substring that must vanish).
LOOKALIKES: lines that must come out of redaction unchanged. None of these are real credentials;
the token formats follow each vendor's published shape.
"""

from __future__ import annotations

# Built from pieces so no scanner mistakes this file for a leak.
A = "AKIA" + "IOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
GHP = "ghp_" + "R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3s1"
GHO = "gho_" + "16C7e42F292c6912E7710c838347Ae178B4a"
GHPAT = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
GLPAT = "glpat-" + "xY9zAbCdEfGhIjKlMnOp"
XOXB = "xoxb-" + "2361234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
XOXP = "xoxp-" + "2361234567890-2361234567891-2361234567892-0a1b2c3d4e5f60718293a4b5c6d7e8f9"
SLACK_HOOK = (
    "https://hooks.slack.com/services/" + "T04AB1C2D3E/B05FG6H7J8K/q8Xm2Lr7Vw4Kt1Zn9Bc3Hy6P"
)
SK_LIVE = "sk_live_" + "51H8xYzAbCdEfGhIjKlMnOpQr"
RK_TEST = "rk_test_" + "4eC39HqLyjWDarjtT1zdp7dc"
OPENAI = "sk-proj-" + "Ab3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9dE1fG3"
OPENAI_OLD = "sk-" + "T3BlbkFJabcdefghijklmnopqrstuvwxyz012345678"
ANTHROPIC = (
    "sk-ant-api03-"
    + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOpQrStUvWxYz01234567-AbCdEfAA"
)
GOOGLE = "AIza" + "SyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    + "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
    + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\n"
    "aFDrBz9vFqU4yN6JmR1qL1dDfK9vWm3w0tR7fD8s6Y2hZq==\n-----END RSA PRIVATE KEY-----"
)
OPENSSH = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACDb0S2kEXAMPLEKEYMATERIALzQ0Zz\n-----END OPENSSH PRIVATE KEY-----"
)
NPM = "npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
HF = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz01234567"
YA29 = "ya29." + "a0AfH6SMBx3-ExampleOAuthAccessTokenValue_123"
HIGH = "Zq8Jm2XvT4pL9sW1nB6yR3kD7fH0cG5aE"

SECRETS: list[tuple[str, str, str]] = [
    ("command", f"AWS_ACCESS_KEY_ID={A} aws s3 ls s3://bucket", A),
    ("command", f"export AWS_SECRET_ACCESS_KEY={AWS_SECRET}", AWS_SECRET),
    (
        "cat output",
        f"[default]\naws_access_key_id = {A}\naws_secret_access_key = {AWS_SECRET}\n",
        AWS_SECRET,
    ),
    ("cat output", f"aws_access_key_id = {A}", A),
    ("command", f"git clone https://{GHP}@github.com/acme/private.git", GHP),
    (
        "error",
        f"remote: Invalid username or password.\nfatal: Authentication failed for 'https://oauth2:{GHO}@github.com/acme/x.git/'",
        GHO,
    ),
    ("command", f"GH_TOKEN={GHPAT} gh pr list", GHPAT),
    ("prompt", f"use this token for the API: {GHP}", GHP),
    (
        "command",
        f"curl --header 'PRIVATE-TOKEN: {GLPAT}' https://gitlab.com/api/v4/projects",
        GLPAT,
    ),
    ("cat output", f"GITLAB_TOKEN={GLPAT}", GLPAT),
    (
        "command",
        f"curl -H 'Authorization: Bearer {XOXB}' https://slack.com/api/chat.postMessage",
        XOXB,
    ),
    ("cat output", f"SLACK_BOT_TOKEN={XOXP}", XOXP),
    ("command", f'curl -X POST -d \'{{"text":"hi"}}\' {SLACK_HOOK}', SLACK_HOOK.rsplit("/", 1)[1]),
    ("error", f"stripe.error.AuthenticationError: Invalid API Key provided: {SK_LIVE}", SK_LIVE),
    ("cat output", f"STRIPE_SECRET_KEY={RK_TEST}", RK_TEST),
    ("command", f"OPENAI_API_KEY={OPENAI} python3 eval.py", OPENAI),
    ("error", f"openai.AuthenticationError: Incorrect API key provided: {OPENAI_OLD}.", OPENAI_OLD),
    ("prompt", f"my key is {ANTHROPIC} can you set it up", ANTHROPIC),
    ("cat output", f'ANTHROPIC_API_KEY="{ANTHROPIC}"', ANTHROPIC),
    (
        "command",
        f"curl 'https://maps.googleapis.com/maps/api/geocode/json?address=x&key={GOOGLE}'",
        GOOGLE,
    ),
    ("cat output", f'  "apiKey": "{GOOGLE}",', GOOGLE),
    ("command", f"curl -H 'Authorization: Bearer {JWT}' http://localhost:8080/api/me", JWT),
    ("error", f"jwt.exceptions.ExpiredSignatureError: Signature has expired for token {JWT}", JWT),
    ("cat output", PEM, "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn"),
    ("cat output", OPENSSH, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"),
    ("cat output", PEM.split("\n-----END")[0], "aFDrBz9vFqU4yN6JmR1qL1dDfK9vWm3w0tR7fD8s6Y2hZq"),
    ("command", "psql postgres://admin:S3cr3tP4ss!@db.internal:5432/app", "S3cr3tP4ss!"),
    (
        "error",
        "redis.exceptions.AuthenticationError: redis://default:r3d1sP4ssw0rd@cache:6379/0",
        "r3d1sP4ssw0rd",
    ),
    (
        "command",
        "git remote add origin https://deploy:hunter2hunter2@git.example.org/x.git",
        "hunter2hunter2",
    ),
    ("command", "curl -u admin:Pa55w0rd-2024 https://jenkins.internal/api/json", "Pa55w0rd-2024"),
    (
        "command",
        "curl --user ci-bot:tok3n-Value-99 https://nexus.internal/repository/",
        "tok3n-Value-99",
    ),
    (
        "command",
        "curl -H 'Authorization: Basic YWRtaW46c3VwZXJzZWNyZXQxMjM=' https://x.internal",
        "YWRtaW46c3VwZXJzZWNyZXQxMjM=",
    ),
    (
        "command",
        "http GET api.internal/v1/items 'Authorization:Token 9f8e7d6c5b4a39281706f5e4d3c2b1a0'",
        "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    ),
    ("cat output", "DB_PASSWORD=correct-horse-battery-staple", "correct-horse-battery-staple"),
    ("cat output", "password: Tr0ub4dor&3", "Tr0ub4dor&3"),
    ("cat output", '  "password": "p@ssw0rd-prod-01",', "p@ssw0rd-prod-01"),
    ("command", "mysql -u root --password=Sup3rS3cret app < dump.sql", "Sup3rS3cret"),
    (
        "cat output",
        "SECRET_KEY = 'django-insecure-8x!k2#mq9z$w4v@p1'",
        "django-insecure-8x!k2#mq9z$w4v@p1",
    ),
    ("cat output", "JWT_SECRET=my-jwt-signing-secret-value", "my-jwt-signing-secret-value"),
    (
        "cat output",
        "SENDGRID_API_KEY=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",
        "SG.ngeVfQFYQlKU0ufo8x5d1A",
    ),
    (
        "cat output",
        "TWILIO_AUTH_TOKEN=4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c",
        "4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c",
    ),
    ("cat output", "MY_SERVICE_KEY=k8s-prod-Qm9vYmFyYmF6cXV4", "k8s-prod-Qm9vYmFyYmF6cXV4"),
    ("cat output", "REFRESH_TOKEN=1//0gLd9kR4nd0mR3fr35hT0k3n", "1//0gLd9kR4nd0mR3fr35hT0k3n"),
    (
        "command",
        "docker login -u bot --password dckr_pat_AbCdEfGhIjKlMnOpQrStUvWxYz0 registry.io",
        "dckr_pat_AbCdEfGhIjKlMnOpQrStUvWxYz0",
    ),
    ("command", f"npm config set //registry.npmjs.org/:_authToken={NPM}", NPM),
    ("cat output", f"//registry.npmjs.org/:_authToken={NPM}", NPM),
    ("command", f"HF_TOKEN={HF} python3 download.py", HF),
    ("error", f"huggingface_hub.errors.HfHubHTTPError: 401 Client Error for token {HF}", HF),
    (
        "command",
        f"curl -H 'Authorization: Bearer {YA29}' https://www.googleapis.com/drive/v3/files",
        YA29,
    ),
    ("prompt", "the staging db password is hunter2-staging-77, use it", "hunter2-staging-77"),
    ("prompt", f"set api_key={HIGH} in the config", HIGH),
    ("error", f"Error: request failed: 403 Forbidden (token={HIGH})", HIGH),
    ("cat output", f"client_secret: {HIGH}", HIGH),
    ("command", "terraform apply -var 'db_password=Xk9$mQ2!vL7p'", "Xk9$mQ2!vL7p"),
    ("command", f"kubectl create secret generic api --from-literal=token={HIGH}", HIGH),
    ("cat output", f'webhook_secret = "whsec_{HIGH}"', HIGH),
    ("command", f"./deploy.sh --api-key {HIGH} --env prod", HIGH),
    ("command", f"./run --token={HIGH}", HIGH),
    (
        "error",
        f"Traceback (most recent call last):\n  ...\nValueError: bad credentials: access_key={A}",
        A,
    ),
    (
        "cat output",
        f"[credentials]\nprivate_key_id = 8f14e45fceea167a5a36dedd4bea2543e5b9c1f0\nprivate_key = {HIGH}",
        HIGH,
    ),
    ("command", f"echo {SK_LIVE} | stripe login --stdin", SK_LIVE),
    ("error", f"Unauthorized: Bearer {HIGH} is not valid", HIGH),
    ("prompt", f"here is the slack token {XOXB}", XOXB),
    ("cat output", f"export GITHUB_TOKEN='{GHP}'", GHP),
]

LOOKALIKES: list[str] = [
    "commit 3f2a9c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a291 (HEAD -> main)",
    "Merge: 4e1a2b3 9c8d7e6",
    "git checkout 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "[main 1a2b3c4] Fix the parser",
    "session 258c7280-ae70-4798-800f-63464d01a85d",
    "request id: 01a22c85-3da0-7f83-82ac-5c91c816babf",
    "UUID('123e4567-e89b-12d3-a456-426614174000')",
    "/home/USER/projects/spotter-worktrees/spotter-gqc/lib/spotter/transcripts/annotation.ex",
    "/tmp/hindsight-example-qcam61gf/claude-home/projects/-tmp-hindsight-example-qcam61gf-acme-app-v2/memory/MEMORY.md",
    "/Users/AliceSmith/Library/Application Support/Code/User/workspaceStorage/4f2a/state.vscdb",
    "C:\\Users\\Bob\\AppData\\Local\\Programs\\Python\\Python311\\Lib\\site-packages",
    "~/.claude/projects/-Users-AliceSmith-Projects-AcmeWebApp2024/5e2a6bfc.jsonl",
    "node_modules/@typescript-eslint/eslint-plugin/dist/rules/no-unused-vars.js",
    "src/components/UserProfileSettingsPanel/UserProfileSettingsPanel.test.tsx",
    "Python 3.11.7 (main, Dec  5 2023, 10:24:35) [GCC 12.2.0] on linux",
    "numpy==1.26.4 pandas==2.2.1 scikit-learn==1.4.1.post1",
    "version: 2.1.328 (Claude Code)",
    "go version go1.22.1 linux/amd64",
    'openjdk version "17.0.15" 2025-04-15',
    "v20.20.2",
    "SGVsbG8gd29ybGQsIHRoaXMgaXMgYSBwbGFpbiBzZW50ZW5jZSBlbmNvZGVkIGluIGJhc2U2NA==",
    "data:text/plain;base64,VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw==",
    "echo TG9yZW0gaXBzdW0gZG9sb3Igc2l0IGFtZXQsIGNvbnNlY3RldHVyIGFkaXBpc2Npbmc= | base64 -d",
    '"integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+5KFQ8V8jYo9PXhsL3LCY6JQ3YUzNOIVSkvGQA==",',
    '"resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",',
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    'hash = "sha256:1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d"',
    "checksum f4c1d2b3a4958675a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1",
    'Cargo.lock: checksum = "a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b1c3d5e7f9a1b3c5d7e9f1a3b5"',
    'poetry.lock content-hash = "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b"',
    "docker pull python@sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
    "https://github.com/xtermjs/xterm.js/issues/1343",
    "https://code.claude.com/docs/en/hooks.md#sessionend",
    "https://docs.python.org/3/library/argparse.html#argparse.ArgumentParser.add_argument",
    "ssh://git@github.com/acme/widgets.git",
    "postgres://localhost:5432/app_development",
    "The password field must be at least 12 characters long.",
    "password = os.environ['DB_PASSWORD']",
    "token = get_token()",
    "api_key: ${OPENAI_API_KEY}",
    "SECRET_KEY=<your-secret-key>",
    "AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY",
    'export GITHUB_TOKEN="$(gh auth token)"',
    "password: ********",
    "if token is None: raise ValueError('missing token')",
    "def test_password_reset_email_is_sent(client, user):",
    "FAILED tests/test_auth.py::test_login_with_expired_token - AssertionError",
    "make: *** No rule to make target 'test'.  Stop.",
    "ModuleNotFoundError: No module named 'yamlish'",
    "ERROR: Could not find a version that satisfies the requirement torch==9.9",
    "npm ERR! code ERESOLVE unable to resolve dependency tree",
    "2026-11-30T12:54:19.123Z INFO server started on :8080",
    "Elapsed: 00:03:20.512, 1234567 records processed",
    "toolu_01ToswhthnREo2bTsZ1xGaqj",
    "msg_01XFDUDYJgAACzvnptvVoYEL",
    "k3f2a9c1e8b7d6f5a4c3b2",
    "ThisIsAVeryLongCamelCaseIdentifierNameForTesting",
    "useCallbackRefForIntersectionObserverHook2",
    "spotter_web_live_project_review_live_test_exs_1",
    "io.github.acmecorp.widgets.internal.serialization.JsonCodec",
    "-tmp-pytest-of-root-pytest-3-test-scan-finds-every-session-0-acme-app-v2",
    "[REDACTED:token] stays as it is",
]
