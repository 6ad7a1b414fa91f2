"""Vendor token formats: (kind, gate literals, pattern), compiled by ``redact`` on first use.

Facts from public scanners' rule sets (gitleaks `cmd/generate/config/rules`, trufflehog
`pkg/detectors`): each format starts with a literal a vendor chose so that scanners can find it,
which is also the gate (every match holds one of its gate's literals; tests/guard/test_gates.py).
Order matters where prefixes overlap: the longer one comes first.
"""

from __future__ import annotations

TOKENS: list[tuple[str, tuple[str, ...], str]] = [
    (
        "private_key",
        ("-----BEGIN ",),
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
    ),
    ("anthropic_key", ("sk-ant-",), r"\bsk-ant-(?:api|admin|oat|sid)\d{2}-[A-Za-z0-9_\-]{20,}"),
    (
        "openai_key",
        ("sk-",),
        r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}(?:T3BlbkFJ[A-Za-z0-9_\-]{10,})?",
    ),
    ("mapbox_secret", ("sk.eyJ",), r"\bsk\.eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]{20,}"),
    (
        "aws_access_key_id",
        ("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA"),
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b",
    ),
    (
        "github_token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        r"\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})\b",
    ),
    (
        "gitlab_token",
        ("glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glcbt-", "glimt-", "glagent-", "gloas-"),
        r"\bgl(?:pat|dt|rt|ptt|ft|cbt|imt|agent|oas)-[A-Za-z0-9_\-]{20,}",  # glsoat-: below
    ),
    ("gitlab_token", ("glsoat-",), r"\bglsoat-[A-Za-z0-9_\-]{20,}"),
    ("slack_token", ("xox",), r"\bxox[abposre]-(?:\d+-)*[A-Za-z0-9\-]{10,}"),
    ("slack_token", ("xapp-",), r"\bxapp-\d-[A-Z0-9]+-\d+-[A-Za-z0-9]{20,}"),
    (
        "slack_webhook",
        ("https://hooks.slack.com/",),
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_\-]+",
    ),
    (
        "discord_webhook",
        ("/api/webhooks/",),
        r"\bdiscord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{40,}",
    ),
    # Fifth red team of #11: webhook URLs whose path is the secret; the host stays readable.
    (
        "netlify_build_hook",
        ("netlify.com/build_hooks/",),
        r"(?<=netlify\.com/build_hooks/)[a-f0-9]{24}\b",
    ),
    (
        "zapier_webhook",
        ("hooks.zapier.com/hooks/catch/",),
        r"(?<=hooks\.zapier\.com/hooks/catch/)\d+/[A-Za-z0-9]+/?",
    ),
    (
        "office_webhook",
        (".office.com/webhookb2/", "outlook.office.com/webhook/"),
        r"(?:(?<=\.office\.com/webhookb2/)|(?<=outlook\.office\.com/webhook/))"
        r"[A-Za-z0-9@\-]+(?:/[A-Za-z0-9@\-]+)*",
    ),
    (
        "make_webhook",
        ("make.com/", "integromat.com/"),
        r"(?:(?<=make\.com/)|(?<=integromat\.com/))[a-z0-9]{32}\b",
    ),
    (
        "ifttt_webhook",
        ("/with/key/", "ifttt.com/use/"),
        r"(?:(?<=/with/key/)|(?<=ifttt\.com/use/))[A-Za-z0-9_\-]{16,}",
    ),
    ("stripe_key", ("_live_", "_test_"), r"\b(?:sk|rk|pk|whsec)_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("stripe_key", ("whsec_",), r"\bwhsec_[A-Za-z0-9+/=]{24,}"),
    ("google_api_key", ("AIza",), r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    ("google_oauth_token", ("ya29.",), r"\bya29\.[0-9A-Za-z_\-]{20,}"),
    ("google_client_secret", ("GOCSPX-",), r"\bGOCSPX-[A-Za-z0-9_\-]{28}"),
    ("npm_token", ("npm_",), r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("pypi_token", ("pypi-AgE",), r"\bpypi-AgE[A-Za-z0-9_\-]{50,}"),
    ("huggingface_token", ("hf_", "api_org_"), r"\b(?:hf_|api_org_)[A-Za-z0-9]{34,}\b"),
    ("jwt", ("eyJ",), r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ("onepassword_token", ("ops_eyJ",), r"\bops_eyJ[A-Za-z0-9+/=_\-]{100,}"),
    ("sendgrid_key", ("SG.",), r"\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}\b"),
    ("twilio_key", ("SK",), r"\bSK[0-9a-fA-F]{32}\b"),
    ("mailgun_key", ("key-",), r"\bkey-[0-9a-f]{32}\b"),
    ("mailchimp_key", ("-us",), r"\b[0-9a-f]{32}-us\d{1,2}\b"),
    (
        "shopify_token",
        ("shpat_", "shpss_", "shpca_", "shppa_"),
        r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b",
    ),
    ("digitalocean_token", ("dop_v1_", "doo_v1_", "dor_v1_"), r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
    ("doppler_token", ("dp.",), r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b"),
    ("databricks_token", ("dapi",), r"\bdapi[a-f0-9]{32}(?:-\d)?\b"),
    ("dynatrace_token", ("dt0c01.",), r"\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b"),
    ("linear_key", ("lin_api_",), r"\blin_api_[A-Za-z0-9]{40}\b"),
    ("postman_key", ("PMAK-",), r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b"),
    ("pulumi_token", ("pul-",), r"\bpul-[a-f0-9]{40}\b"),
    ("rubygems_key", ("rubygems_",), r"\brubygems_[a-f0-9]{48}\b"),
    ("terraform_token", (".atlasv1.",), r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=\-]{60,70}"),
    ("vault_token", ("hvs.", "hvb.", "hvr."), r"\bhv[sbr]\.[A-Za-z0-9_\-]{24,}"),
    ("sentry_token", ("sntrys_", "sntryu_"), r"\bsntry[su]_[A-Za-z0-9+/=_\-]{40,}"),
    ("grafana_token", ("glc_",), r"\bglc_[A-Za-z0-9+/]{32,400}={0,2}"),
    ("grafana_token", ("glsa_",), r"\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b"),
    (
        "age_secret_key",
        ("AGE-SECRET-KEY-1",),
        r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
    ),
    ("atlassian_token", ("ATATT3", "ATCTT3"), r"\bAT[AC]TT3[A-Za-z0-9_\-=]{150,}"),
    (
        "azure_client_secret",
        ("Q~",),
        r"(?<![A-Za-z0-9_~.\-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}(?![A-Za-z0-9_~.\-])",
    ),
    (
        "azure_storage_key",
        ("AccountKey=", "SharedAccessKey="),
        r"(?:(?<=AccountKey=)|(?<=SharedAccessKey=))[A-Za-z0-9+/]{40,}={0,2}",
    ),
    ("telegram_bot_token", (":AA",), r"\b\d{8,10}:AA[A-Za-z0-9_\-]{32,33}(?![A-Za-z0-9_\-])"),
    ("heroku_key", ("HRKU-",), r"\bHRKU-AA[A-Za-z0-9_\-]{58}"),
    ("flyio_token", ("fo1_",), r"\bfo1_[A-Za-z0-9_\-]{43}"),
    ("flyio_token", ("fm1", "fm2_"), r"\bfm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3}"),
    ("flutterwave_key", ("FLWSECK",), r"\bFLWSECK(?:_TEST)?-[a-h0-9]{32}-X"),
    ("newrelic_key", ("NRAK-", "NRJS-", "NRII-"), r"\bNR(?:AK|II|JS)-[A-Za-z0-9]{19,32}\b"),
    ("planetscale_token", ("pscale_",), r"\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.=]{32,64}"),
    ("prefect_key", ("pnu_",), r"\bpnu_[A-Za-z0-9]{36}\b"),
    ("readme_key", ("rdme_",), r"\brdme_[a-z0-9]{70}\b"),
    (
        "square_token",
        ("EAAA", "sq0atp-", "sq0csp-"),
        r"\b(?:EAAA[A-Za-z0-9_\-]{60}|sq0atp-[A-Za-z0-9_\-]{22}|sq0csp-[A-Za-z0-9_\-]{43})(?![A-Za-z0-9_\-])",
    ),
    ("dropbox_token", ("sl.",), r"\bsl\.[A-Za-z0-9_\-]{130,}"),
    ("easypost_key", ("EZAK", "EZTK"), r"\bEZ[AT]K[A-Za-z0-9]{54}\b"),
    ("airtable_token", ("pat",), r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b"),
    ("clojars_token", ("CLOJARS_",), r"\bCLOJARS_[a-z0-9]{60}\b"),
    ("contentful_token", ("CFPAT-",), r"\bCFPAT-[A-Za-z0-9_\-]{43}(?![A-Za-z0-9_\-])"),
    ("scalingo_token", ("tk-us-",), r"\btk-us-[A-Za-z0-9_\-]{48}(?![A-Za-z0-9_\-])"),
    ("openshift_token", ("sha256~",), r"\bsha256~[A-Za-z0-9_\-]{43}(?![A-Za-z0-9_\-])"),
    (
        "harness_token",
        ("pat.", "sat."),
        r"\b(?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[a-f0-9]{24}\.[A-Za-z0-9]{20}\b",
    ),
    ("infracost_key", ("ico-",), r"\bico-[A-Za-z0-9]{32}\b"),
    ("groq_key", ("gsk_",), r"\bgsk_[A-Za-z0-9]{52}\b"),
    ("perplexity_key", ("pplx-",), r"\bpplx-[A-Za-z0-9]{48}\b"),
    ("langsmith_key", ("lsv2_",), r"\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b"),
    ("docker_token", ("dckr_pat_", "dckr_oat_"), r"\bdckr_(?:pat|oat)_[A-Za-z0-9_\-]{20,}"),
    ("alibaba_key", ("LTAI",), r"\bLTAI[A-Za-z0-9]{20}\b"),
    ("shippo_token", ("shippo_",), r"\bshippo_(?:live|test)_[a-f0-9]{40}\b"),
    ("typeform_token", ("tfp_",), r"\btfp_[A-Za-z0-9_\-.=]{59}"),
    ("nuget_key", ("oy2",), r"\boy2[a-z0-9]{43}\b"),
    ("sourcegraph_token", ("sgp_",), r"\bsgp_(?:[a-fA-F0-9]{16}_)?[a-fA-F0-9]{40}\b"),
    ("supabase_token", ("sbp_",), r"\bsbp_(?:v0_)?[a-f0-9]{40}\b"),
    ("notion_token", ("ntn_",), r"\bntn_[0-9]{11}[A-Za-z0-9]{35}\b"),
    ("replicate_token", ("r8_",), r"\br8_[A-Za-z0-9]{37}\b"),
    ("buildkite_token", ("bkua_",), r"\bbkua_[a-f0-9]{40}\b"),
    ("figma_token", ("figd_",), r"\bfigd_[A-Za-z0-9_\-]{40,}"),
    ("pinecone_key", ("pcsk_",), r"\bpcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{50,}\b"),
    ("firebase_fcm_key", ("APA91b",), r"\bAAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{100,}"),
    ("cloudflare_origin_ca", ("v1.0-",), r"\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b"),
    ("deno_token", ("ddp_", "ddw_"), r"\bdd[pw]_[A-Za-z0-9]{36}\b"),
    ("tailscale_key", ("tskey-",), r"\btskey-[a-z]+-[A-Za-z0-9]+-[A-Za-z0-9]{20,}"),
    ("xai_key", ("xai-",), r"\bxai-[A-Za-z0-9]{80}\b"),
    ("circleci_token", ("CCIPAT_", "CCIPRJ_"), r"\bCCIP(?:AT|RJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}\b"),
    ("adobe_secret", ("p8e-",), r"\bp8e-[A-Za-z0-9]{32}\b"),
    ("frameio_token", ("fio-u-",), r"\bfio-u-[A-Za-z0-9_\-=]{64}"),
    ("octopus_key", ("API-",), r"\bAPI-[A-Z0-9]{26}\b"),
    ("duffel_token", ("duffel_",), r"\bduffel_(?:test|live)_[A-Za-z0-9_\-=]{43}"),
    # Vendors added for #11's fourth pass: formats a bare random key check can miss (a UUID or hex
    # inside, '$' or '!' splitting the token, or just too few runs for the entropy floor).
    ("salesforce_token", ("00D",), r"\b00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{80,}"),
    (
        "plaid_token",
        ("-sandbox-", "-development-", "-production-"),
        r"\b(?:access|processor)-(?:sandbox|development|production)-"
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
    ),
    (
        "hubspot_token",
        ("pat-",),
        r"\bpat-(?:na|eu|ap)\d{1,2}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
    ),
    ("asana_token", ("0/", "1/", "2/"), r"\b[012]/\d{16}(?:/\d{16})?:[0-9a-f]{32}\b"),
    ("bitbucket_app_password", ("ATBB",), r"\bATBB[A-Za-z0-9_=.\-]{28,}"),
    ("tencent_secret_id", ("AKID",), r"\bAKID[A-Za-z0-9]{32}\b"),
    (
        "braintree_token",
        ("access_token$",),
        r"\baccess_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}\b",
    ),
    (
        "launchdarkly_key",
        ("sdk-", "mob-", "api-"),
        r"\b(?:sdk|mob|api)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
    ),
    ("posthog_key", ("phx_",), r"\bphx_[A-Za-z0-9]{43}\b"),
    ("mailersend_token", ("mlsn.",), r"\bmlsn\.[A-Za-z0-9]{64,}"),
    ("artifactory_key", ("AKCp",), r"\bAKCp[A-Za-z0-9]{69}\b"),
    ("twitter_bearer", ("A" * 22,), r"\bA{22}[A-Za-z0-9%]{60,}"),
    ("yandex_key", ("AQVN",), r"\bAQVN[A-Za-z0-9_\-]{35,38}(?![A-Za-z0-9_\-])"),
    (
        "password_hash",
        ("$2", "$apr1$", "$5$", "$6$", "$argon2"),
        r"\$(?:2[aby]\$\d{2}\$[./A-Za-z0-9]{53}|apr1\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}"
        r"|[56]\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}"
        r"|argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+)",
    ),
]
