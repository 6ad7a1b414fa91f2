"""Fake secrets in the shapes public scanners' rule sets define, placed where transcripts hold them.

Facts taken from the rule sets (token prefixes, lengths, alphabets), values generated: gitleaks
`cmd/generate/config/rules/*.go` (and their true-positive samples), trufflehog `pkg/detectors/*`,
detect-secrets' plugins. Each kind appears in four positions of a session, bare (no name beside it
that would give it away) except in the `.env` line a `cat` prints.

SCANNER: (kind, position, line as it appears, the secret that must vanish).
"""

from __future__ import annotations

from collections.abc import Callable

from guard.fakes import (
    ALNUM,
    ALPHA,
    B64,
    BECH32,
    DIGITS,
    HEX,
    LOWER_ALNUM,
    UPPER_ALNUM,
    URLSAFE,
    Fakes,
)

F = Fakes(11)

# (kind, env name a .env file would use, the value's shape)
SHAPES: list[tuple[str, str, Callable[[], str]]] = [
    ("aws_access_key_id", "AWS_ACCESS_KEY_ID", lambda: "AKIA" + F.s(UPPER_ALNUM, 16)),
    ("aws_sts_key_id", "AWS_ACCESS_KEY_ID", lambda: "ASIA" + F.s(UPPER_ALNUM, 16)),
    ("github_pat", "GITHUB_TOKEN", lambda: "ghp_" + F.s(ALNUM, 36)),
    ("github_oauth", "GH_TOKEN", lambda: "gho_" + F.s(ALNUM, 36)),
    ("github_app", "GH_APP_TOKEN", lambda: "ghs_" + F.s(ALNUM, 36)),
    ("github_refresh", "GH_REFRESH", lambda: "ghr_" + F.s(ALNUM, 36)),
    (
        "github_fine_grained",
        "GITHUB_PAT",
        lambda: "github_pat_" + F.s(ALNUM, 22) + "_" + F.s(ALNUM, 59),
    ),
    ("gitlab_pat", "GITLAB_TOKEN", lambda: "glpat-" + F.s(URLSAFE, 20)),
    ("gitlab_runner", "RUNNER_TOKEN", lambda: "glrt-" + F.s(URLSAFE, 20)),
    ("gitlab_deploy", "CI_DEPLOY", lambda: "gldt-" + F.s(URLSAFE, 20)),
    (
        "slack_bot",
        "SLACK_BOT",
        lambda: f"xoxb-{F.s(DIGITS, 11)}-{F.s(DIGITS, 13)}-{F.s(ALNUM, 24)}",
    ),
    (
        "slack_user",
        "SLACK_USER",
        lambda: f"xoxp-{F.s(DIGITS, 11)}-{F.s(DIGITS, 11)}-{F.s(DIGITS, 13)}-{F.s(HEX, 32)}",
    ),
    (
        "slack_app",
        "SLACK_APP",
        lambda: f"xapp-1-A{F.s(UPPER_ALNUM, 10)}-{F.s(DIGITS, 13)}-{F.s(HEX, 64)}",
    ),
    ("stripe_secret", "STRIPE", lambda: "sk_live_" + F.s(ALNUM, 99)),
    ("stripe_restricted", "STRIPE_RK", lambda: "rk_live_" + F.s(ALNUM, 24)),
    ("stripe_webhook", "STRIPE_WH", lambda: "whsec_" + F.s(ALNUM, 32)),
    (
        "openai",
        "OPENAI",
        lambda: "sk-proj-" + F.s(URLSAFE, 58) + "T3BlbkFJ" + F.s(URLSAFE, 58),
    ),
    ("openai_legacy", "OPENAI_OLD", lambda: "sk-" + F.s(ALNUM, 20) + "T3BlbkFJ" + F.s(ALNUM, 20)),
    ("anthropic", "ANTHROPIC", lambda: "sk-ant-api03-" + F.s(URLSAFE, 93) + "AA"),
    ("anthropic_admin", "ANTHROPIC_ADMIN", lambda: "sk-ant-admin01-" + F.s(URLSAFE, 93) + "AA"),
    ("google_api_key", "GOOGLE_API", lambda: "AIza" + F.s(URLSAFE, 35)),
    ("google_oauth_access", "GOOGLE_ACCESS", lambda: "ya29." + F.s(URLSAFE, 70)),
    ("google_client_secret", "GOOGLE_CLIENT", lambda: "GOCSPX-" + F.s(URLSAFE, 28)),
    ("npm", "NPM", lambda: "npm_" + F.s(ALNUM, 36)),
    ("pypi", "PYPI", lambda: "pypi-AgEIcHlwaS5vcmc" + F.s(URLSAFE, 70)),
    ("huggingface", "HF", lambda: "hf_" + F.s(ALPHA, 34)),
    ("huggingface_org", "HF_ORG", lambda: "api_org_" + F.s(ALPHA, 34)),
    ("jwt", "SESSION_JWT", F.jwt),
    ("sendgrid", "SENDGRID", lambda: "SG." + F.s(URLSAFE, 22) + "." + F.s(URLSAFE, 43)),
    ("twilio_api_key", "TWILIO_SK", lambda: "SK" + F.s(HEX, 32)),
    ("mailgun", "MAILGUN", lambda: "key-" + F.s(HEX, 32)),
    ("mailchimp", "MAILCHIMP", lambda: F.s(HEX, 32) + "-us" + F.s(DIGITS, 2)),
    ("shopify_access", "SHOPIFY", lambda: "shpat_" + F.s(HEX, 32)),
    ("shopify_shared", "SHOPIFY_SHARED", lambda: "shpss_" + F.s(HEX, 32)),
    ("digitalocean", "DO", lambda: "dop_v1_" + F.s(HEX, 64)),
    ("doppler", "DOPPLER", lambda: "dp.pt." + F.s(ALNUM, 43)),
    ("databricks", "DATABRICKS", lambda: "dapi" + F.s(HEX, 32)),
    ("dynatrace", "DT", lambda: "dt0c01." + F.s(UPPER_ALNUM, 24) + "." + F.s(UPPER_ALNUM, 64)),
    ("linear", "LINEAR", lambda: "lin_api_" + F.s(ALNUM, 40)),
    ("postman", "POSTMAN", lambda: "PMAK-" + F.s(HEX, 24) + "-" + F.s(HEX, 34)),
    ("pulumi", "PULUMI", lambda: "pul-" + F.s(HEX, 40)),
    ("rubygems", "GEM_HOST", lambda: "rubygems_" + F.s(HEX, 48)),
    ("terraform_cloud", "TFC", lambda: F.s(ALNUM, 14) + ".atlasv1." + F.s(URLSAFE, 67)),
    ("vault_service", "VAULT", lambda: "hvs." + F.s(URLSAFE, 90)),
    ("vault_batch", "VAULT_BATCH", lambda: "hvb." + F.s(URLSAFE, 138)),
    ("sentry_user", "SENTRY", lambda: "sntryu_" + F.s(HEX, 64)),
    ("grafana_service", "GRAFANA", lambda: "glsa_" + F.s(ALNUM, 32) + "_" + F.s(HEX, 8)),
    ("grafana_cloud", "GRAFANA_CLOUD", lambda: "glc_" + F.s(B64, 80)),
    ("age", "AGE", lambda: "AGE-SECRET-KEY-1" + F.s(BECH32, 58)),
    ("atlassian", "JIRA", lambda: "ATATT3" + F.s(URLSAFE, 186)),
    (
        "azure_ad_secret",
        "AZURE_CLIENT",
        lambda: F.s(ALNUM, 3) + F.s(DIGITS, 1) + "Q~" + F.s(ALNUM + "_~.-", 34),
    ),
    ("telegram_bot", "TELEGRAM", lambda: F.s(DIGITS, 10) + ":AA" + F.s(URLSAFE, 33)),
    ("heroku_v2", "HEROKU", lambda: "HRKU-AA" + F.s(URLSAFE, 58)),
    ("flyio", "FLY", lambda: "fo1_" + F.s(URLSAFE, 43)),
    ("flutterwave", "FLW", lambda: "FLWSECK_TEST-" + F.s("abcdefgh" + DIGITS, 32) + "-X"),
    ("new_relic", "NEW_RELIC", lambda: "NRAK-" + F.s(UPPER_ALNUM, 27)),
    ("planetscale", "PSCALE", lambda: "pscale_tkn_" + F.s(URLSAFE, 43)),
    ("prefect", "PREFECT", lambda: "pnu_" + F.s(ALNUM, 36)),
    ("readme", "README_API", lambda: "rdme_" + F.s(LOWER_ALNUM, 70)),
    ("square", "SQUARE", lambda: "EAAA" + F.s(URLSAFE, 60)),
    ("square_secret", "SQUARE_SECRET", lambda: "sq0csp-" + F.s(URLSAFE, 43)),
    ("dropbox", "DROPBOX", lambda: "sl." + F.s(URLSAFE, 135)),
    ("easypost", "EASYPOST", lambda: "EZAK" + F.s(ALNUM, 54)),
    ("airtable", "AIRTABLE", lambda: "pat" + F.s(ALNUM, 14) + "." + F.s(HEX, 64)),
    ("clojars", "CLOJARS", lambda: "CLOJARS_" + F.s(LOWER_ALNUM, 60)),
    ("contentful", "CONTENTFUL", lambda: "CFPAT-" + F.s(URLSAFE, 43)),
    ("scalingo", "SCALINGO", lambda: "tk-us-" + F.s(URLSAFE, 48)),
    ("openshift", "OC", lambda: "sha256~" + F.s(URLSAFE, 43)),
    (
        "harness",
        "HARNESS",
        lambda: "pat." + F.s(URLSAFE, 22) + "." + F.s(HEX, 24) + "." + F.s(ALNUM, 20),
    ),
    ("infracost", "INFRACOST", lambda: "ico-" + F.s(ALNUM, 32)),
    ("groq", "GROQ", lambda: "gsk_" + F.s(ALNUM, 52)),
    ("perplexity", "PPLX", lambda: "pplx-" + F.s(ALNUM, 48)),
    ("langsmith", "LANGSMITH", lambda: "lsv2_pt_" + F.s(HEX, 32) + "_" + F.s(HEX, 10)),
    ("docker_hub", "DOCKER_PAT", lambda: "dckr_pat_" + F.s(URLSAFE, 27)),
    ("onepassword_service", "OP_SERVICE", lambda: "ops_eyJ" + F.s(B64, 250)),
    ("mapbox_secret", "MAPBOX", lambda: "sk.eyJ" + F.s(ALNUM, 60) + "." + F.s(URLSAFE, 22)),
    ("alibaba", "ALIBABA", lambda: "LTAI" + F.s(ALNUM, 20)),
    ("shippo", "SHIPPO", lambda: "shippo_live_" + F.s(HEX, 40)),
    ("typeform", "TYPEFORM", lambda: "tfp_" + F.s(URLSAFE, 59)),
    ("nuget", "NUGET", lambda: "oy2" + F.s(LOWER_ALNUM, 43)),
    ("sourcegraph", "SRC", lambda: "sgp_" + F.s(HEX, 40)),
    ("supabase", "SUPABASE", lambda: "sbp_" + F.s(HEX, 40)),
    ("notion", "NOTION", lambda: "ntn_" + F.s(DIGITS, 11) + F.s(ALNUM, 35)),
    ("replicate", "REPLICATE", lambda: "r8_" + F.s(ALNUM, 37)),
    ("buildkite", "BUILDKITE", lambda: "bkua_" + F.s(HEX, 40)),
    ("figma", "FIGMA", lambda: "figd_" + F.s(URLSAFE, 40)),
    ("pinecone", "PINECONE", lambda: "pcsk_" + F.s(ALNUM, 5) + "_" + F.s(ALNUM, 63)),
    (
        "firebase_fcm",
        "FCM",
        lambda: "AAAA" + F.s(URLSAFE, 7) + ":APA91b" + F.s(URLSAFE, 134),
    ),
    ("cloudflare_origin_ca", "CF_ORIGIN", lambda: "v1.0-" + F.s(HEX, 24) + "-" + F.s(HEX, 146)),
    ("deno_deploy", "DENO", lambda: "ddp_" + F.s(ALNUM, 36)),
    (
        "tailscale",
        "TS_AUTHKEY",
        lambda: "tskey-auth-" + F.s(ALNUM, 17) + "-" + F.s(ALNUM, 32),
    ),
    ("xai", "XAI", lambda: "xai-" + F.s(ALNUM, 80)),
    ("circleci", "CIRCLE", lambda: "CCIPAT_" + F.s(ALNUM, 22) + "_" + F.s(HEX, 40)),
    ("adobe", "ADOBE", lambda: "p8e-" + F.s(ALNUM, 32)),
    ("frameio", "FRAMEIO", lambda: "fio-u-" + F.s(URLSAFE, 64)),
    ("octopus", "OCTOPUS", lambda: "API-" + F.s(UPPER_ALNUM, 26)),
    ("duffel", "DUFFEL", lambda: "duffel_test_" + F.s(URLSAFE, 43)),
    # Added for #11's fourth pass (after the others, so their values stay as they were).
    (
        "twitter_bearer",
        "TWITTER_BEARER",
        lambda: "A" * 22 + F.s(ALNUM, 30) + "%2F" + F.s(ALNUM, 8) + "%3D" + F.s(ALNUM, 50),
    ),
    ("salesforce", "SFDC", lambda: "00D" + F.s(ALNUM, 12) + "!" + F.s(ALNUM + "._", 96)),
    ("plaid", "PLAID_ACCESS", lambda: "access-production-" + F.uuid()),
    ("hubspot", "HUBSPOT", lambda: "pat-na1-" + F.uuid()),
    (
        "asana",
        "ASANA",
        lambda: "2/" + F.s(DIGITS, 16) + "/" + F.s(DIGITS, 16) + ":" + F.s(HEX, 32),
    ),
    ("bitbucket_app_password", "BITBUCKET", lambda: "ATBB" + F.s(ALNUM, 32)),
    ("artifactory", "ARTIFACTORY", lambda: "AKCp" + F.s(ALNUM, 69)),
    ("yandex", "YANDEX", lambda: "AQVN" + F.s(URLSAFE, 36)),
    ("tencent", "TENCENT", lambda: "AKID" + F.s(ALNUM, 32)),
    (
        "discord_bot",
        "DISCORD_BOT",
        lambda: "M" + F.s(ALNUM, 23) + "." + F.s(URLSAFE, 6) + "." + F.s(URLSAFE, 27),
    ),
    ("intercom", "INTERCOM", lambda: F.b64(f"tok:{F.uuid()}:1:0".encode()).rstrip("=")),
    (
        "braintree",
        "BRAINTREE",
        lambda: "access_token$production$" + F.s(LOWER_ALNUM, 16) + "$" + F.s(HEX, 32),
    ),
    ("launchdarkly", "LD_SDK", lambda: "sdk-" + F.uuid()),
    ("posthog", "POSTHOG", lambda: "phx_" + F.s(ALNUM, 43)),
    ("mailersend", "MAILERSEND", lambda: "mlsn." + F.s(HEX, 64)),
    ("aws_session_token", "AWS_SESSION", lambda: "IQoJb3JpZ2luX2VjE" + F.s(B64, 300)),
]

# A place in a session and the text there; {v}: the value, {n}: the env name.
TEMPLATES: list[tuple[str, str]] = [
    ("command", "./scripts/check-credential.sh {v} --verbose"),
    ("stdout", "created credential: {v}"),
    ("stderr", "warning: {v} will expire in 7 days"),
    ("cat", "{n}={v}"),
    ("prompt", "use {v} for the staging deploy"),
    ("error", "Error: 401 Unauthorized: invalid credential {v}"),
    ("tool_input", 'client = Client("{v}", timeout=30)'),
]


def _build() -> list[tuple[str, str, str, str]]:
    out = []
    for i, (kind, name, shape) in enumerate(SHAPES):
        for j in range(4):
            value = shape()
            position, template = TEMPLATES[(i + j * 2) % len(TEMPLATES)]
            out.append((kind, position, template.format(v=value, n=name + "_KEY"), value))
    return out


SCANNER: list[tuple[str, str, str, str]] = _build()
