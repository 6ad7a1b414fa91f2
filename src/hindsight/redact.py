"""Secret redaction: everything hindsight writes or prints passes through ``redact``.

Our own patterns rather than a library (bench/compare_detect_secrets.py measures one): vendor
token formats are exact prefixes (``secret_tokens``: cheap, near-zero false positives); then the
shapes credentials take in transcripts (URLs, headers, assignments, flags, credential files); then
values that look random beside a name, and long random strings anywhere (``randomness``), skipping
what transcripts are full of (git SHAs, UUIDs, lock-file hashes, public keys, base64 of text).
tests/guard/ measures recall and false positives per kind; the README has the figures.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from hindsight import secret_context as _context
from hindsight import secret_slots as _slots
from hindsight.randomness import is_hex, is_uuid, lazy, looks_random, public_id, wordy


def _tokens() -> list[tuple[str, tuple[str, ...], Callable[[], re.Pattern[str]]]]:
    from hindsight.secret_tokens import TOKENS

    return [(kind, gate, lazy(pattern)) for kind, gate, pattern in TOKENS]


# (kind, gate, pattern): the pattern runs only on text holding one of the gate's literals, each
# a part of every match (tests/guard/test_gates.py checks that gates never change a result).
_TOKENS = _tokens()

_URL_CREDENTIALS = lazy(
    r"\b([a-z][a-z0-9+.\-]*://)([^\s/:@'\"]*):([^\s/'\"]+)@(?=[^\s@/'\"]*(?:[/\s'\"?#]|$))", re.I
)
_URL_TOKEN_USER = lazy(r"\b(https?://)([A-Za-z0-9_\-]{20,})@", re.I)
# ``-u user:pw``, glued ``-uuser:pw``, ``--user=user:pw``; never a ``$VARIABLE`` (no secret in it).
_CURL_USER = lazy(r"((?:^|\s)(?:-u\s*|--user(?:\s+|=))['\"]?)([^\s'\":]+):(?!\$|//)([^\s'\"]+)")
_AUTH_HEADER = lazy(
    r"(\b(?:proxy-)?authorization\b['\"]?\s*[:=]\s*['\"]?"
    r"(?:(?:bearer|basic|token|bot|digest|apikey)\s*|(?P<scheme>[A-Za-z][\w\-]{1,24})\s+)?)"
    r"([A-Za-z0-9._~+/=\-][A-Za-z0-9._~+/=:\-]{7,})",
    re.I,
)
_BEARER = lazy(r"(\bbearer\s+)([A-Za-z0-9._~+/=\-]{16,})", re.I)
_BASIC = lazy(r"(\bbasic\s+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])", re.I)
_SECRET_NAME = (
    r"[A-Za-z0-9_.\-]*(?:passw(?:or)?d|passwd|pwd|secret|token|api[_\-]?key|apikey|access[_\-]?key|"
    r"private[_\-]?key|client[_\-]?secret|auth[_\-]?key|credentials?|_key|_pat\b|[_\-.]pass(?![a-z]))"
    r"[A-Za-z0-9_\-]*"
)
# A name whose last part says the value is about a secret, not the secret: its file, its name...
_META_NAME = lazy(
    r"(?:[_\-.]|(?<=[a-z])(?=[A-Z]))(?:names?|files?|paths?|dir|url|uri|type|length|len|header|env|var|"
    r"ref|arn|field|policy|algorithm|algo|expiry|expires|seconds|ttl|size|format|version|count|"
    r"required|enabled|location|store|manager|provider|prompt|label|hint|helper|source|mode|method|"
    r"strategy|backend|command|cmd|stdin|id|ids|min|max|endpoint|scopes?|kind|hasher|hashers|reset|"
    r"rotation|pattern|regex|schema|template|prefix|suffix|length)$",
    re.I,
)
_ASSIGN = lazy(
    rf"(?P<pre>(?P<q>\\?[\"']?)(?<![/\\\w])(?P<name>{_SECRET_NAME})(?P=q)[ \t]*(?<!:)(?::=|=|:(?!:))[ \t]*)"
    rf"(?P<vq>\\?[\"']?)(?P<value>(?:[^\s\"'`,;&)}}\]\\]|&(?!\w+=))+)(?P=vq)(?P<after>[ \t]+\w)?",
    re.I,
)
# --pw, --psw, --pass, --admin-pass, --root-pw: any value, however plain ("summer2026").
_FLAG = lazy(
    rf"(--(?P<name>{_SECRET_NAME}|(?:[\w.]*[-_])?(?:pw|psw|pswd|pass))[=\s]+['\"]?)([^\s'\"]{{3,}})",
    re.I,
)
_EXACT = lazy(
    r"(?<![A-Za-z0-9_.\-])(?P<q>\\?[\"']?)(?P<name>_?auth|api|pass|identitytoken|hmac|sig|signature)"
    r"(?P=q)\s*[:=]\s*(?P<vq>\\?[\"']?)(?P<value>[A-Za-z0-9+/=._~%\-]{8,})",
    re.I,
)
_NOT_A_VALUE = lazy(
    r"^(?:\$\{.*|\$\(.*|\$[A-Za-z_][A-Za-z0-9_]*|<[^>]*>?|<%.*|\*+|x+|X+|\.+|null|none|nil|true|false|"
    r"undefined|required|optional|string|str|int|env|changeme|example|your[_\-].*|redacted.*|\[REDACTED.*|"
    r"os\.environ.*|process\.env.*|getenv.*|self\..*|\{\{.*|%\(.*|[a-z_]+\(.*|\d{1,6}|[-/~.].*|"
    r"[|>][+\-]?\d?|\$\w+\(.*|=+|[\w\-]{0,12}[-_](?:x{3,}|X{3,}|\*{3,}|\.{3})|"
    r"ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-[\w\-]+|sk-(?:ssh|ecdsa)-[\w@.\-]+)$",
    re.I,
)
_XML = lazy(
    r"(<(?P<tag>[A-Za-z_:\-]*(?:password|passwd|secret|token|apikey|api_key|privatekey)[A-Za-z_\-]*)>)"
    r"([^<\s]{3,200})(?=</(?P=tag)>)",
    re.I,
)
_CALL_PAIR = lazy(
    rf"((?P<q>['\"])(?:{_SECRET_NAME})(?P=q)\s*,\s*(?P<vq>['\"]))([^'\"\n]{{3,}})(?=(?P=vq))", re.I
)
_PROSE = lazy(
    r"(\b(?:password|passwd|passphrase|passcode|pin(?:\s+code)?|token|secret|api key|apikey)"
    r"(?:\s+(?:is|was|è|é|es|est|ist|lautet|jest|är|er)\s+|\s*[=:]\s*|(\s+)))(?=\S*[A-Za-z])(?=\S*\d)"
    r"([^\s,;]{6,})",
    re.I,
)
_NETRC = lazy(r"(\b(?:machine\s+\S+|default)(?:\s+login\s+\S+)?\s+password\s+)(\S+)")
_PGPASS = lazy(r"(?m)^([^:\s]+:(?:\d+|\*):[^:\s]+:[^:\s]+:)([^\s]{4,})$")
_VALUE = r"('[^'\n]*'|\"[^\"\n]*\"|[^\s'\";|&]+)"
# The same, never an empty pair of quotes (`ssh-keygen -N ''` says "no passphrase": keep it)
# nor a variable's name (`-p $PASSWORD` holds no secret).
_FILLED = r"(?!['\"]?\$)('[^'\n]+'|\"[^\"\n]+\"|[^\s'\";|&]+)"
# Passwords that other languages name (German "Passwort lautet X", French, Spanish, ...): after a
# ":" or "=" any value (as after an English name), after a verb or a space one with a digit.
_INTL_WORDS = (
    "passwort|kennwort|mot de passe|contrase(?:ñ|n)a|senha|parola d'ordine|wachtwoord|hasło|heslo|"
    "lösenord|salasana|adgangskode|passord|jelszó|parolă|kata sandi|mật khẩu|пароль|κωδικός|"
    "סיסמה|كلمة المرور|पासवर्ड|รหัสผ่าน|密码|密碼|口令|パスワード|暗証番号|비밀번호|암호"
)
_PROSE_INTL = lazy(
    rf"((?:{_INTL_WORDS})(?:(?P<sep>\s*[=:：]\s*)|\s+(?:lautet|ist|war|est|es|era|é|è|is|"
    r"jest|это|är|er|on|je)\s+|\s+))(?P<value>[^\s,;，。、]+)(?P<after>[ \t]+\w)?",
    re.I,
)
_INTL_GATE: tuple[str, ...] = (
    "passw",
    "kennw",
    "passe",
    "contras",
    "senha",
    "parola",
    "wachtw",
    "hasło",
    "пароль",
    "heslo",
    "lösen",
    "salasana",
    "adgangskode",
    "passord",
    "jelsz",
    "parolă",
    "kata sand",
    "mật khẩu",
    "κωδικ",
    "סיסמה",
    "كلمة المرور",
    "पासवर्ड",
    "รหัสผ่าน",
)
_INTL_GATE += ("密码", "密碼", "口令", "パスワード", "暗証番号", "비밀번호", "암호")
# A key typed in groups ("the api key is q8Zr 2VtL m9Xw ..."): the groups are one secret.
_SPACED = lazy(
    r"(\b(?:password|passphrase|token|secret|api key|apikey|key|code)\s+(?:is|was|[=:])\s+)"
    r"((?:[A-Za-z0-9]{3,8}[ -]){2,}[A-Za-z0-9]{3,8})(?![A-Za-z0-9])",
    re.I,
)
# SQL: CREATE/ALTER USER ... IDENTIFIED BY 'x', WITH PASSWORD 'x' (a heredoc fed to mysql, psql).
_SQL_PASSWORD = lazy(
    r"(\bidentified\s+(?:with\s+\w+\s+)?by\s+(?:password\s+)?|\bwith\s+(?:encrypted\s+)?password\s+)"
    r"('[^'\n]+'|\"[^\"\n]+\")",
    re.I,
)
# Windows: setx NAME value, net use \\host\share PASSWORD /user:NAME (or /user:NAME PASSWORD).
_SETX = lazy(
    rf"(\bsetx\s+(?:/m\s+)?(?:{_SECRET_NAME}|[A-Za-z_]*(?:PASS|PWD|AUTH)[A-Za-z0-9_]*)\s+){_VALUE}",
    re.I,
)
_NET_USE = lazy(
    r"(\bnet\s+use\b[^\n|&]*?(?:\\\\\S+|/user:\S+)\s+)(?![/*])('[^'\n]*'|\"[^\"\n]*\"|[^\s'\"]+)",
    re.I,
)
# A vendor's prefix with fewer characters than its format: a token cut across lines or clipped.
_CUT_TOKEN = lazy(
    r"\b(?:gh[pousr]_|github_pat_|glpat-|sk_live_|rk_live_|sk-ant-|xox[abposre]-)[A-Za-z0-9_\-]{8,}"
)
# Shorter random keys with no name beside them (an argument, a todo, a branch, a file name):
# letters of both cases and digits, 20 to 31 of them, in the short runs of a generated key.
_MID_CANDIDATE = lazy(r"(?<![A-Za-z0-9+_\-%~=])[A-Za-z0-9]{20,31}(?![A-Za-z0-9+_\-%~=])")
# Programs that take a password in a short or glued flag: (gate, its literals lowercase as they
# are looked for in the folded text; pattern with the value last).
_PROGRAM_FLAGS: list[tuple[tuple[str, ...], Callable[[], re.Pattern[str]]]] = [
    (("mysql", "mariadb"), lazy(rf"(\b(?:mysql|mariadb)[\w\-]*\b[^\n|;&]*?\s-p)(?!\s){_VALUE}")),
    (("sshpass",), lazy(rf"(\bsshpass\s+-p\s*){_VALUE}")),
    (("redis-cli",), lazy(rf"(\bredis-cli\b[^\n|;&]*?\s-a\s+){_VALUE}")),
    (
        ("login",),
        lazy(
            rf"(\blogin\b[^\n|;&]*?\s-p\s+)(?!['\"]?(?:[~/]|\.{{1,2}}/|[a-z]+://|\S*\.(?:pem|pfx|p12|crt|cer)\b))"
            rf"{_FILLED}"
        ),
    ),
    (("zip", "7z"), lazy(rf"(\b(?:zip|unzip|7za?)\b[^\n|;&]*?\s-(?:P\s*|p)(?!\s)){_VALUE}")),
    (("pass:",), lazy(rf"(\bpass:){_VALUE}")),
    (("htpasswd",), lazy(rf"(\bhtpasswd\s+-\w*b\w*\s+(?:-\w+\s+)*\S+\s+\S+\s+){_VALUE}")),
    (
        ("lftp", "ncftp"),
        lazy(rf"(\b(?:lftp|ncftp\w*)\b[^\n|;&]*?\s-u\s+['\"]?[^\s,'\"]+,){_VALUE}"),
    ),
    # Third red team of #11: programs whose password is an argument.
    (
        ("useradd", "usermod"),
        lazy(rf"(\b(?:useradd|usermod)\b[^\n|;&]*?\s(?:-p|--password)[\s=]+){_FILLED}"),
    ),
    (("pass ",), lazy(rf"(\s-(?:src|dest)?(?:store|key)pass\s+){_FILLED}")),
    (
        ("rabbitmqctl",),
        lazy(rf"(\brabbitmqctl\b[^\n|;&]*?\s(?:add_user|change_password)\s+\S+\s+){_FILLED}"),
    ),
    (
        ("passwd", "sudo -s", "-stdin"),
        lazy(
            rf"(\b(?:echo|printf)\s+(?:-[neE]+\s+)?(?:(['\"]?)%s(?:\\n)?\2\s+)?){_FILLED}"
            r"(?=\s*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:passwd(?![\w-])|chpasswd\b|sudo\s+-S\b|"
            r"[\w.-]+(?:\s+-\S+)*\s+login\b[^\n|]*--password-stdin))"
        ),
    ),
    (("-stdin",), lazy(rf"(--password-stdin\b[^\n|;&]*?<<<\s*){_FILLED}")),
    # Fifth red team: sudo -S reads the password from a here-string.
    (
        ("sudo",),
        lazy(rf"(\bsudo\s+(?:-[A-Za-z]+\s+)*?-[A-Za-z]*S[A-Za-z]*\s+(?:-\S+\s+)*<<<\s*){_FILLED}"),
    ),
    (("sqlcmd", "bcp", "osql"), lazy(rf"(\b(?:sqlcmd|bcp|osql)\b[^\n|;&]*?\s-P\s*){_FILLED}")),
    (
        ("mongo",),
        lazy(
            rf"(\bmongo(?:sh|dump|restore|import|export|stat|top)?\b[^\n|;&]*?"
            rf"\s(?:-p|--password)(?:\s+|=)){_FILLED}"
        ),
    ),
    (("--passphrase",), lazy(rf"(--passphrase(?:\s+|=)){_FILLED}")),
    (("ssh-keygen",), lazy(rf"(\bssh-keygen\b[^\n|;&]*?\s-[NP]\s+){_FILLED}")),
    (("auth",), lazy(rf"(\bredis-cli\b[^\n|;&]*?\sAUTH\s+(?:[^\s'\"]+\s+(?=\S))?){_FILLED}")),
    # Fourth red team of #11.
    (("ldap",), lazy(rf"(\bldap\w+\b[^\n|;&]*?\s-w\s+){_FILLED}")),
    (("ldappasswd",), lazy(rf"(\bldappasswd\b[^\n|;&]*?\s-[as]\s+){_FILLED}")),
    (("openssl",), lazy(rf"(\bopenssl\b[^\n|;&]*?\s-[kK]\s+){_FILLED}")),
    (
        ("rclone",),
        lazy(
            r"(\brclone\b[^\n|;&]*?\s(?:obscure|pass|password2?|client_secret|token|key|"
            rf"secret_access_key|account_key|sas_url|bearer_token)(?:\s+|=)){_FILLED}"
        ),
    ),
    (
        ("convertto-securestring",),
        lazy(
            r"(\bConvertTo-SecureString\s+(?:-(?:AsPlainText|Force)\s+)*(?:-String\s+)?)(?!-)"
            rf"{_FILLED}",
            re.I,
        ),
    ),
    (("net",), lazy(rf"(\bnet\s+user\s+(?!/)\S+\s+)(?![/*]){_FILLED}", re.I)),
    (
        ("sqlplus", "sqlldr", "expdp", "impdp", "rman", "oracle"),
        lazy(
            r"(\b(?:sqlplus|sqlldr|expdp|impdp|rman|jdbc:oracle:\w+:)(?:[^\n|;&]*?[\s'\"])??"
            r"(?:(?:target|auxiliary|catalog)\s+)?[\w$#.]+/)([^\s@/'\";]+)(?=@|\s|['\"]|$)",
            re.I,
        ),
    ),
    (("poetry",), lazy(rf"(\bpoetry\s+config\s+http-basic\.\S+\s+\S+\s+){_FILLED}")),
    (
        ("secret set",),
        lazy(rf"(\bgh\s+secret\s+set\b[^\n|;&]*?\s(?:--body|-b)[\s=]+)(?!-){_FILLED}"),
    ),
    (
        ("smbclient", "-u"),
        lazy(rf"(\b(?:smbclient|rpcclient|mount\.cifs)\b[^\n|;&]*?\s-U\s+[^\s%]+%){_VALUE}"),
    ),
]
# Credentials in code: a call that takes a user and a password (HTTPBasicAuth("u", "pw"),
# new NetworkCredential("u", "pw"), smtp.login("u", "pw"), auth=("u", "pw")): the second, quoted.
_CALL_CREDENTIAL = lazy(
    r"((?:\b\w*(?:auth(?!or)|credentials?|login|basic)\w*\s*\(|\bauth\s*[=:]\s*[(\[])\s*"
    r"(?:(['\"])[^'\"\n]*\2|[\w.\[\]]+)\s*,\s*(['\"]))([^'\"\s]{3,})(?=\3)",
    re.I,
)
# Go's DSN: user:password@tcp(host:3306)/db (no scheme, so no URL rule sees it); never a format
# verb or a variable.
_GO_DSN = lazy(r"(\b[\w.\-]+:)(?!%[sv]@|\$|\{)([^\s'\"`]+?)(?=@(?:tcp|udp|unix)6?\()")
# A password in a query string under a short name (?pw=, &pass=); the longer names are assignments.
_QUERY_PASSWORD = lazy(r"((?<![^\s?&;])(?:pw|pass)=)([^&\s#'\"]+)", re.I)
# `aws configure set aws_secret_access_key X`, `yarn config set npmAuthToken X`, dotnet
# user-secrets: a secret's name, then its value after a space.
_CONFIG_SET = lazy(
    r"(\b(?:configure\s+set|config\s+set|config|user-secrets\s+set)\s+(?:--?[\w\-]+(?:=\S+)?\s+)*"
    r"['\"]?(?!set-)(?P<name>[\w.:/\-]*(?:passw(?:or)?d|passwd|pwd|secret|token|api[_\-]?key|apikey|"
    r"access[_\-]?key|private[_\-]?key|auth[_\-]?key|credentials?)[\w.:/\-]*)['\"]?\s+)"
    r"(?!-)(?P<value>'[^'\n]+'|\"[^\"\n]+\"|[^\s'\";|&]+)",
    re.I,
)
# YAML's block scalar: `password: |` (or `>-`), the secret on the more indented lines below.
_YAML_BLOCK = lazy(
    rf"(?m)^(?P<indent>[ \t]*)(?:-[ \t]+)?['\"]?(?P<name>{_SECRET_NAME})['\"]?[ \t]*:[ \t]*"
    r"[|>][+\-]?\d*[ \t]*(?:#[^\n]*)?\n(?P<body>(?:(?P=indent)[ \t]+\S[^\n]*(?:\n|$)|[ \t]*\n)+)",
    re.I,
)
_PUBLIC_NAME = lazy(r"public|publishable|pub[_\-]?key|^pub$", re.I)
_NOT_SECRET_BLOCK = lazy(r"public|pub\b|cert|known|authorized|fingerprint", re.I)
# An ini line `pass = X` (rclone's config: the obscured password is as good as the password).
_INI_PASS = lazy(r"(?m)^([ \t]*pass[ \t]*=[ \t]*)(\S+)[ \t]*$")
# expect: the answer sent after a password prompt (on the line of the send or the one before).
_EXPECT_SEND = lazy(
    r"(\bsend\s+(?:-(?:-|s|h|raw|null)\s+)*\")((?:[^\"\\\s]|\\[^rn\s])+?)(?=(?:\\r|\\n)?\")"
)
_PROMPTED = lazy(r"assword|passphrase|passcode", re.I)
# Cookie and Set-Cookie headers, curl's --cookie: the values of the session's cookies.
_COOKIE_HEADER = lazy(r"(\b(?:set-)?cookie['\"]?\s*:\s*['\"]?)([^\n'\"]+)", re.I)
_CURL_COOKIE = lazy(
    r"((?:\bcurl\b[^\n|;&]*?\s-b\s+|--cookie(?:\s+|=))['\"]?)([^\s'\"=;]+=[^'\"\n]*)", re.I
)
_COOKIE_PAIR = lazy(r"(?:^|(?<=;))(\s*)([^=;\s]+)=([^;]*)")
_COOKIE_ATTRIBUTE = lazy(
    r"path|domain|expires|max-age|samesite|secure|httponly|priority|partitioned|version|comment",
    re.I,
)
_COOKIE_SECRET = lazy(r"sess|sid|auth|token|jwt|remember|login|csrf|xsrf|key|secret|pass", re.I)
# A key after a --...key flag: hex or random (a file, a path or a name stays).
_KEY_FLAG = lazy(r"(--(?P<name>[\w\-]*key)(?:=|\s+)['\"]?)(?P<value>[^\s'\"]{16,})", re.I)
_NOT_A_KEY_FLAG = lazy(
    r"cache|sort|partition|primary|foreign|idempotency|dedup|routing|object|public|group|host|"
    r"name|file|path|id$|ssh|gpg|pgp|sign|recv|default|trusted|keyserver",
    re.I,
)
# `mysql -p secret db`: mysql reads the word after a spaced -p as the database, so a second
# positional word after it (a database named later), a character no bare database name holds,
# or a random look says it was a password typed with a space.
_MYSQL_SPACED = lazy(
    r"(\b(?P<prog>mysql|mariadb|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck)\b"
    r"[^\n|;&]*?\s-p\s+)(?P<value>(?!-)'[^'\n]+'|\"[^\"\n]+\"|(?![\$<])[^\s'\";|&<>]+)"
    r"(?P<rest>[^\n|;&<>]*)"
)
_MYSQL_ARGUMENT_OPTIONS = frozenset(
    ["-D", "-e", "-h", "-P", "-S", "-u", "--execute", "--host", "--port", "--user"]
)
_NAMED = lazy(
    r"(?P<pre>(?<![A-Za-z0-9_/.\-])(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{1,60})\\?[\"']?\s*(?:=|:(?!:))\s*\\?[\"']?)"
    r"(?P<value>[A-Za-z0-9+/_\-.~%]{12,}={0,2})(?![A-Za-z0-9+/_\-.~%=:@])"
)
_ID_NAME = lazy(
    r"id$|_id|-id|uuid|guid|sha|hash|commit|\brev|revision|checksum|integrity|digest|etag|^h1$|sum$|"
    r"md5|crc|fingerprint|version|build|ref$|head|parent|tree|oid|blob|object|trace|span|request|"
    r"correlation|image|container|layer|serial|mapping|path|file|dir|url|uri|host|name|version|date|time|"
    r"btih|cf-ray|address|addr$|wallet|cid$|public|pub[_\-]?key|^pub$|ed25519|x25519|ecdsa|^rsa$|^did$",
    re.I,
)
_CANDIDATE = lazy(
    r"(?<![A-Za-z0-9+/_\-.%~=])[A-Za-z0-9+/_\-.%~]{32,}={0,2}(?![A-Za-z0-9+/_\-.%~=])"
)
_SHORT_B64 = lazy(
    r"(?<![A-Za-z0-9+/=_\-])(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{12,31}={0,2}(?![A-Za-z0-9+/=_\-])"
)
_HASH_PREFIX = lazy(
    r"(?:sha(?:1|224|256|384|512)|md5|blake2b?|xxh\d*|h1|sha256~)[-:=]\s*$|base64,$|urn:btih:$|"
    r"\b(?:x-amz-(?:id-2|cf-id|request-id)|x-request-id|request[_\-]?id|trace[_\-]?id|etag|"
    r"x-cache-key)['\"]?\s*[:=]\s*['\"]?$|"
    # Public by their name (issue #25): an OAuth client id, a public key, a key's id.
    r"\b(?:(?:oauth[_\-]?)?client[_\-]?id|app[_\-]?id|publi(?:c|shable)[_\-]?key|pub[_\-]?key|kid|"
    r"key[_\-]?id|fingerprint|recipient|address)['\"]?\s*[:=]\s*['\"]?$|"
    r"(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-\S+|sk-\S+@openssh\.com)\s+$|\b(?:ed25519|x25519|ed448):$|\bdid:[a-z0-9]+:$",
    re.I,
)
_DISCORD = lazy(r"[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}")
_PUBLIC_BLOCK = lazy(r"-----BEGIN (?![A-Z0-9 ]*PRIVATE)[A-Z0-9 ]+-----")
_PLACEHOLDER = lazy(r"([A-Za-z0-9])\1{15}")
_CREDENTIAL_TEXT = lazy(r"[\w.@+\-]{1,64}:[^\s:/][^\s]{2,}")


def _tag(kind: str) -> str:
    return f"[REDACTED:{kind}]"


@functools.lru_cache(maxsize=4096)
def _decoded(token: str) -> str | None:
    """The text a base64 token decodes to, when it is text."""
    import base64
    import binascii

    try:
        raw = base64.b64decode(
            token + "=" * (-len(token) % 4),
            altchars=b"-_" if "-" in token or "_" in token else None,
            validate=True,
        )
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    if len(text) < 6:
        return None
    printable = sum(ch.isprintable() or ch in "\n\r\t" for ch in text)
    return text if printable / len(text) > 0.97 else None


def _wraps_secret(token: str) -> bool | None:
    """True: base64 of a credential (``user:pass``) or of text holding a secret; False: base64 of
    other text; None: not base64 of text."""
    text = _decoded(token.rstrip("="))
    if text is None:
        return None
    if _CREDENTIAL_TEXT().fullmatch(text.strip()):
        return True
    return _redact(text, decode=False) != text


def _in_public_block(text: str, at: int) -> bool:
    """Inside a PEM block that is not a private key (a certificate, a public key)."""
    begin = text.rfind("-----BEGIN ", max(0, at - 20_000), at)  # a chain of certificates fits
    return (
        begin >= 0
        and "-----END " not in text[begin:at]
        and bool(_PUBLIC_BLOCK().match(text, begin))
    )


# Dates, times and UUIDs inside a name (a Codex rollout's file name: rollout-<date>T<time>-<uuid>
# .jsonl, hindsight's own evidence): taken out, what is left says whether the name is random.
_DATED = lazy(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|"
    r"\d{4}-\d\d-\d\d(?:[T_]\d\d[-:]\d\d(?:[-:]\d\d(?:\.\d+)?)?Z?)?"
)


def _bare_random(token: str, decode: bool) -> bool:
    """A long token with no name beside it: a secret when it is random and not hex (hashes)."""
    core = token.rstrip("=")
    if "-" in core and _DATED().search(core):
        pieces = core.split("/")
        for n, piece in enumerate(pieces):
            rest = [p for p in re.split(r"[-_.]+", _DATED().sub("-", piece)) if p]
            if rest != [piece] and all(wordy(p) or p.isdigit() for p in rest):
                pieces[n] = "dated"
        core = "/".join(pieces)
        if core == "dated":
            return False
    if decode and (wrapped := _wraps_secret(core)) is not None:
        return wrapped
    if "%" in core:
        from urllib.parse import unquote

        core = unquote(core)
    pieces = [p for p in re.split(r"[/.]", core) if p]
    if _DISCORD().fullmatch(core) and looks_random(pieces[0], 20, hex_counts=False):
        return True  # a Discord bot token: its short middle piece may read as a word
    if len(pieces) > 1 and any(wordy(p) for p in pieces):  # a path, a host, a dotted name
        return any(len(p) >= 32 and looks_random(p, 32, hex_counts=False) for p in pieces)
    return looks_random(core, 32, hex_counts=False)


def _candidate(m: re.Match[str], decode: bool = True) -> str:
    token, text, at = m.group(0), m.string, m.start()
    before = text[max(0, at - 40) : at]
    if "[REDACTED" in before[-12:] or _HASH_PREFIX().search(before) or _in_public_block(text, at):
        return token
    if re.match(r"(?:sha(?:1|224|256|384|512)|md5)-", token, re.I) or public_id(token):
        return token  # subresource-integrity hashes (package-lock.json), addresses, CIDs
    return _tag("high_entropy") if _bare_random(token, decode) else token


def _mid_random(m: re.Match[str]) -> str:
    token = m.group(0)
    if "[REDACTED" in m.string[max(0, m.start() - 12) : m.start()]:
        return token
    strong = (
        any(c.isupper() for c in token)
        and any(c.islower() for c in token)
        and sum(c.isdigit() for c in token) >= 2
    )
    if not strong or _HASH_PREFIX().search(m.string[max(0, m.start() - 40) : m.start()]):
        return token
    if public_id(token):
        return token
    if _wraps_secret(token) is False:  # base64 of plain text
        return token
    # Inside a longer base64 run (a public key, a certificate line, an integrity hash) the
    # slashes are base64's, not a path's: its other pieces are random too, or it holds a "+".
    text, start, end = m.string, m.start(), m.end()
    while start > 0 and text[start - 1] in _B64_RUN:
        start -= 1
    while end < len(text) and text[end] in _B64_RUN:
        end += 1
    run = text[start:end]
    if run != token and (
        "+" in run or any(p != token and looks_random(p, 12) for p in run.split("/"))
    ):
        return token
    return _tag("high_entropy") if looks_random(token, 20, hex_counts=False) else token


_B64_RUN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


def _spaced(m: re.Match[str]) -> str:
    groups = re.split(r"[ -]", m.group(2))
    joined = "".join(groups)
    mixed = any(c.isdigit() for c in joined) or (joined != joined.lower() != joined.upper())
    if not mixed or not looks_random(joined, 12, mean_run=3.0):
        return m.group(0)
    return m.group(1) + _tag("secret")


def _short_base64(m: re.Match[str]) -> str:
    token = m.group(0)
    if len(token) % 4 or "[REDACTED" in m.string[max(0, m.start() - 12) : m.start()]:
        return token
    return _tag("base64_credential") if _wraps_secret(token) else token


def _fold(text: str) -> str:
    """Text as the re.I patterns see it, for the gates: casefold, plus the one letter that matches
    an ASCII one under re.I and casefolds to something else (dotless i)."""
    return text.casefold().replace("ı", "i")


def _kept(value: str) -> bool:
    return bool(_NOT_A_VALUE().match(value)) or "[REDACTED" in value


def _assignment(m: re.Match[str]) -> str:
    value, name = m.group("value"), m.group("name")
    whole = m.group(0)
    if _kept(value) or (
        _META_NAME().search(name) and not name.lower().endswith(("secret_id", "private_key_id"))
    ):
        return whole
    if _PUBLIC_NAME().search(name) or public_id(value):
        return whole  # WireGuard's PublicKey = ..., an age recipient
    if is_uuid(value) and not re.search(r"api|auth|token|secret|pass", name, re.I):
        return whole  # idempotency and cache keys are UUIDs
    lower = name.lower()
    if lower.endswith(("_key_id", "keyid")) and len(value) < 24:
        return whole
    sep_is_colon = m.group("pre").rstrip().endswith(":")
    if sep_is_colon and m.group("after") and value.isalpha() and value.islower():
        return whole  # prose: "password: see auth/reset.py"
    kind = (
        "password"
        if "pass" in lower or lower == "pwd"
        else "token"
        if "token" in lower
        else "key"
        if "key" in lower
        else "secret"
    )
    q = m.group("vq")
    return f"{m.group('pre')}{q}{_tag(kind)}{q}{m.group('after') or ''}"


def _exact(m: re.Match[str]) -> str:
    value = m.group("value")
    if _kept(value):
        return m.group(0)
    secret = bool(_wraps_secret(value)) or looks_random(value, 12) or is_uuid(value)
    if not secret:
        return m.group(0)
    return m.group(0)[: m.start("value") - m.start()] + _tag("secret")


def _named(m: re.Match[str]) -> str:
    value, name = m.group("value"), m.group("name")
    if _ID_NAME().search(name) or is_uuid(value) or _kept(value) or public_id(value):
        return m.group(0)
    if m.string[max(0, m.start() - 4) : m.start()] == "did:":  # a DID names a public key
        return m.group(0)
    core = value.rstrip("=")
    if "%" in core:
        from urllib.parse import unquote

        core = unquote(core)
    pieces = [p for p in re.split(r"[/.]", core) if p]
    if len(pieces) > 1 and any(wordy(p) for p in pieces):
        return m.group(0)
    if _wraps_secret(core) is False:
        return m.group(0)
    random = looks_random(core, 12, mean_run=3.0)
    return m.group("pre") + _tag("secret") if random else m.group(0)


def _flag(m: re.Match[str]) -> str:
    name, value = m.group("name"), m.group(3)
    if _kept(value) or value.startswith("-") or _META_NAME().search(name) or _slots.switch(name):
        return m.group(0)
    return m.group(1) + _tag("secret")


def _sub(pattern: Callable[[], re.Pattern[str]], kind: str) -> Callable[[str], str]:
    """Replace the last group of each match, keeping what comes before it."""

    def step(text: str) -> str:
        def one(m: re.Match[str]) -> str:
            value = m.group(m.lastindex or 0)
            if "[REDACTED" in value:
                return m.group(0)
            return m.group(0)[: m.start(m.lastindex or 0) - m.start()] + _tag(kind)

        return pattern().sub(one, text)

    return step


def _token(m: re.Match[str], kind: str) -> str:
    # A placeholder (sk-xxxxxxxxxxxxxxxxxxxx) has the shape of a token and no secret.
    token = m.group(0)[22:] if kind == "twitter_bearer" else m.group(0)  # its "A" * 22 prefix
    return m.group(0) if _PLACEHOLDER().search(token) else _tag(kind)


def _by_line(text: str, gate: tuple[str, ...], step: Callable[[str], str]) -> str:
    """``step`` on each line that holds a gate literal (folded): for a pattern whose matches
    never span lines, the same result as on the whole text, without scanning every line of a
    long report or digest (the assignment pattern was most of their redaction time)."""
    if len(text) < 4096:
        return step(text)
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if _gate(gate, _fold(line)):
            lines[n] = step(line)
    return "\n".join(lines)


def _lines(gate: tuple[str, ...], step: Callable[[str], str]) -> Callable[[str], str]:
    """``step`` on the lines of a long text that hold one of ``gate``'s literals (folded), found
    with ``str.find``: for a one-line pattern without a literal to start from (a name, a program
    or a label first), a scan of a long report costs the lines it could match, not every line."""

    def on_lines(text: str) -> str:
        if len(text) < 4096:
            return step(text)
        hay = _fold(text)
        if len(hay) != len(text):  # positions would not line up (ß, İ): the whole text
            return step(text)
        spans = set()
        for literal in gate:
            at = hay.find(literal)
            while at >= 0:
                end = text.find("\n", at)
                end = len(text) if end < 0 else end
                spans.add((text.rfind("\n", 0, at) + 1, end))
                at = hay.find(literal, end)
        out, last = [], 0
        for start, end in sorted(spans):
            out += [text[last:start], step(text[start:end])]
            last = end
        return "".join(out) + text[last:]

    return on_lines


def _quoted_value(m: re.Match[str]) -> str:
    value = m.group(2)
    if _kept(value[1:-1]):
        return m.group(0)
    return f"{m.group(1)}{value[0]}{_tag('password')}{value[0]}"


def _setx(m: re.Match[str]) -> str:
    name = m.group(1).split()[-1]
    if _kept(m.group(2).strip("'\"")) or _META_NAME().search(name):
        return m.group(0)
    return m.group(1) + _tag("secret")


def _net_use(m: re.Match[str]) -> str:
    value = m.group(2)
    if _kept(value.strip("'\"")) or "[REDACTED" in value or value.startswith("\\\\"):
        return m.group(0)
    return m.group(1) + _tag("password")


def _authorization(m: re.Match[str]) -> str:
    """An Authorization header's credential; after a scheme of another name (SSWS, Splunk,
    sso-key) only a value with a digit: "authorization: see docs/auth.md" is prose."""
    value = m.group(3)
    if "[REDACTED" in value or (m.group("scheme") and not any(c.isdigit() for c in value)):
        return m.group(0)
    return m.group(0)[: m.start(3) - m.start()] + _tag("authorization")


def _kept_quoted(m: re.Match[str]) -> str:
    """The last group redacted unless it is no value (a variable, a placeholder, a path...)."""
    value = m.group(m.lastindex or 0)
    if _kept(value.strip("'\"")) or "[REDACTED" in value:
        return m.group(0)
    return m.group(0)[: m.start(m.lastindex or 0) - m.start()] + _tag("password")


def _expect_send(m: re.Match[str]) -> str:
    text, at = m.string, m.start()
    before = text[text.rfind("\n", 0, max(0, text.rfind("\n", 0, at))) + 1 : at]
    return _kept_quoted(m) if _PROMPTED().search(before) else m.group(0)


def _prose(m: re.Match[str]) -> str:
    """A password, token or secret named in prose; after a bare space, never a name that
    resource commands take (`kubectl get secret db-password-v2`) or a lowercase dashed name."""
    value = m.group(3)
    if "[REDACTED" in value:
        return m.group(0)
    if m.group(2) is not None and (
        m.group(1).lower().startswith("pin")
        or re.fullmatch(r"[a-z0-9]+(?:[-.][a-z0-9]+)+", value)
        or re.search(
            r"\b(?:get|describe|delete|edit|patch|label|annotate|create\s+\w+|rollout|secrets?)\s+$",
            m.string[max(0, m.start() - 40) : m.start()],
        )
    ):
        return m.group(0)
    return m.group(1) + _tag("password")


def _prose_intl(m: re.Match[str]) -> str:
    value = m.group("value")
    if _kept(value) or "[REDACTED" in value:
        return m.group(0)
    if m.group("sep") is None:
        letter = any(c.isalpha() for c in value)
        if len(value) < 6 or not letter or not any(c.isdigit() for c in value):
            return m.group(0)
    elif value.isalpha() and (m.group("after") or not value.isascii()):
        return m.group(0)  # prose: "Passwort: siehe Wiki", "пароль: неверный"
    return m.group(1) + _tag("password") + (m.group("after") or "")


def _config_set(m: re.Match[str]) -> str:
    name, value = m.group("name"), m.group("value")
    if _kept(value.strip("'\"")) or _META_NAME().search(name) or "[REDACTED" in value:
        return m.group(0)
    return m.group(1) + _tag("secret")


def _yaml_block(m: re.Match[str]) -> str:
    name = m.group("name")
    if _META_NAME().search(name) or _NOT_SECRET_BLOCK().search(name):
        return m.group(0)
    body = m.group("body")
    lines = body.split("\n")
    for n, line in enumerate(lines):
        content = line.strip()
        if content and "[REDACTED" not in content:
            lines[n] = line[: len(line) - len(line.lstrip())] + _tag("secret")
    return m.group(0)[: m.start("body") - m.start()] + "\n".join(lines)


def _cookies(m: re.Match[str], value_group: int) -> str:
    def pair(p: re.Match[str]) -> str:
        name, value = p.group(2), p.group(3).strip()
        if (
            _COOKIE_ATTRIBUTE().fullmatch(name)
            or _kept(value)
            or "[REDACTED" in value
            or not (_COOKIE_SECRET().search(name) or looks_random(value, 12, mean_run=3.0))
        ):
            return p.group(0)
        return f"{p.group(1)}{name}={_tag('cookie')}"

    pairs = _COOKIE_PAIR().sub(pair, m.group(value_group))
    return m.group(0)[: m.start(value_group) - m.start()] + pairs


def _key_flag(m: re.Match[str]) -> str:
    name, value = m.group("name"), m.group("value")
    if _kept(value) or "[REDACTED" in value or _NOT_A_KEY_FLAG().search(name):
        return m.group(0)
    pieces = [p for p in re.split(r"[/.]", value) if p]
    if len(pieces) > 1 and any(wordy(p) for p in pieces):
        return m.group(0)  # a path, a file, a dotted name
    if is_hex(value) or looks_random(value, 16, hex_counts=False):
        return m.group(1) + _tag("key")
    return m.group(0)


def _mysql_spaced(m: re.Match[str]) -> str:
    value = m.group("value")
    bare = value.strip("'\"")
    if _kept(bare) or "[REDACTED" in value:
        return m.group(0)
    words = re.findall(r"'[^']*'|\"[^\"]*\"|\S+", m.group("rest"))
    positional, skip = False, False
    for word in words:
        if skip:
            skip = False
        elif word in _MYSQL_ARGUMENT_OPTIONS:
            skip = True
        elif not word.startswith("-"):
            positional = True
    second = positional and m.group("prog") in ("mysql", "mariadb")
    if second or re.search(r"[^\w$]", bare) or looks_random(bare, 8, mean_run=3.0):
        return m.group(1) + _tag("password") + m.group("rest")
    return m.group(0)


def _nfkc(text: str) -> str:
    """Lines in compatibility forms (fullwidth ＰＡＳＳＷＯＲＤ＝..., ligatures, math letters) seen as
    NFKC folds them: a line holding a secret that way is replaced by its folded, redacted form."""
    if text.isascii():
        return text
    import unicodedata

    if unicodedata.is_normalized("NFKC", text):
        return text
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if not line.isascii() and not unicodedata.is_normalized("NFKC", line):
            folded = unicodedata.normalize("NFKC", line)
            redacted = _redact(folded)
            if redacted != folded:
                lines[n] = redacted
    return "\n".join(lines)


_COLON_HEX = lazy(r"(?:[A-Za-z0-9]{2,6}:)?(?:[0-9a-fA-F]{2}:){5,}[0-9a-fA-F]{2}")


def _pgpass(m: re.Match[str]) -> str:
    """A .pgpass line's password; a fingerprint (MD5:aa:bb:..., a MAC) is no such line."""
    if _COLON_HEX().fullmatch(m.group(0)) or "[REDACTED" in m.group(2):
        return m.group(0)
    return m.group(1) + _tag("password")


def _basic(m: re.Match[str]) -> str:
    return m.group(1) + _tag("authorization") if _wraps_secret(m.group(2)) else m.group(0)


# Any vendor token's gate literal: where none is in a text, no token step can change it.
_ANY_TOKEN = lazy("|".join(re.escape(n) for _, gate, _ in _TOKENS for n in gate))
_NAMES = ("pass", "pwd", "secret", "token", "key", "credential", "_pat")  # in every _SECRET_NAME
# (gate, folded, step): a step runs only on text holding one of its gate's literals (in the folded
# text when folded), each a part of every match of the step's patterns; no gate: always runs.
_STEPS: list[tuple[tuple[str, ...], bool, Callable[[str], str]]] = [
    *(
        (gate, False, lambda t, k=kind, p=pattern: p().sub(lambda m: _token(m, k), t))
        for kind, gate, pattern in _TOKENS
    ),
    (
        ("://",),
        False,
        lambda t: _URL_CREDENTIALS().sub(
            lambda m: (
                m.group(0)
                if "[REDACTED" in m.group(0)
                else f"{m.group(1)}{_tag('url_credentials')}@"
            ),
            t,
        ),
    ),
    (
        ("://",),
        False,
        lambda t: _URL_TOKEN_USER().sub(lambda m: f"{m.group(1)}{_tag('url_credentials')}@", t),
    ),
    (
        ("-u",),
        False,
        lambda t: _CURL_USER().sub(
            lambda m: (
                m.group(0)
                if "[REDACTED" in m.group(0)
                else f"{m.group(1)}{m.group(2)}:{_tag('password')}"
            ),
            t,
        ),
    ),
    (
        ("@tcp(", "@udp(", "@unix("),
        False,
        _lines(("@tcp(", "@udp(", "@unix("), _sub(_GO_DSN, "password")),
    ),
    (
        ("pw=", "pass="),
        True,
        _lines(("pw=", "pass="), lambda t: _QUERY_PASSWORD().sub(_kept_quoted, t)),
    ),
    (("basic",), True, lambda t: _BASIC().sub(_basic, t)),
    (("authorization",), True, lambda t: _AUTH_HEADER().sub(_authorization, t)),
    (("bearer",), True, _sub(_BEARER, "bearer")),
    (("machine", "default"), False, _sub(_NETRC, "password")),
    (("pass", "secret", "token", "key"), True, _sub(_XML, "secret")),
    (_NAMES, True, _sub(_CALL_PAIR, "secret")),
    (
        ("auth", "credential", "login", "basic"),
        True,
        _lines(
            ("auth", "credential", "login", "basic"),
            lambda t: _CALL_CREDENTIAL().sub(_kept_quoted, t),
        ),
    ),
    (_NAMES, True, lambda t: _YAML_BLOCK().sub(_yaml_block, t) if "\n" in t else t),
    (_NAMES, True, lambda t: _by_line(t, _NAMES, lambda ln: _ASSIGN().sub(_assignment, ln))),
    (
        ("config", "user-secrets"),
        True,
        _lines(("config", "user-secrets"), lambda t: _CONFIG_SET().sub(_config_set, t)),
    ),
    (
        ("auth", "api", "pass", "identitytoken", "hmac", "sig"),
        True,
        lambda t: _EXACT().sub(_exact, t),
    ),
    (
        ("pass", "pin", "token", "secret", "api key", "apikey"),
        True,
        lambda t: _PROSE().sub(_prose, t),
    ),
    ((*_NAMES, "-pw", "psw"), True, lambda t: _FLAG().sub(_flag, t)),
    *((gate, True, _lines(gate, _sub(pattern, "password"))) for gate, pattern in _PROGRAM_FLAGS),
    # Issue #25: by the slot a value stands in, whatever the program (secret_slots.py).
    (_slots.OPTION_GATE, True, _lines(_slots.OPTION_GATE, _slots.options)),
    (_slots.SHORT_GATE, True, _lines(_slots.SHORT_GATE, _slots.short_options)),
    (_slots.POSITIONAL_GATE, True, _lines(_slots.POSITIONAL_GATE, _slots.positional)),
    (_slots.STDIN_GATE, False, _slots.stdin),
    (_slots.STORE_GATE, True, _lines(_slots.STORE_GATE, _slots.stores)),
    (_slots.LABEL_GATE, True, _slots.label_lines),
    (_INTL_GATE, True, _lines(_INTL_GATE, lambda t: _PROSE_INTL().sub(_prose_intl, t))),
    (("pass",), False, _lines(("pass",), lambda t: _INI_PASS().sub(_kept_quoted, t))),
    (("send",), False, lambda t: _EXPECT_SEND().sub(_expect_send, t)),
    (
        ("cookie",),
        True,
        _lines(("cookie",), lambda t: _COOKIE_HEADER().sub(lambda m: _cookies(m, 2), t)),
    ),
    (
        ("-b", "cookie"),
        True,
        _lines(("-b", "cookie"), lambda t: _CURL_COOKIE().sub(lambda m: _cookies(m, 2), t)),
    ),
    (("key",), True, _lines(("key",), lambda t: _KEY_FLAG().sub(_key_flag, t))),
    (
        ("mysql", "mariadb"),
        False,
        _lines(("mysql", "mariadb"), lambda t: _MYSQL_SPACED().sub(_mysql_spaced, t)),
    ),
    (
        ("password", "passphrase", "token", "secret", "key", "code"),
        True,
        lambda t: _SPACED().sub(_spaced, t),
    ),
    (("identified", "password"), True, lambda t: _SQL_PASSWORD().sub(_quoted_value, t)),
    (("setx",), True, lambda t: _SETX().sub(_setx, t)),
    # Fifth red team of #11: context, not shape (secret_context.py).
    (_context.NAMING_GATE, True, _lines(_context.NAMING_GATE, _context.near)),
    (_context.SESSION_GATE, True, _lines(_context.SESSION_GATE, _context.session_cookies)),
    (_context.VAULT_GATE, False, _context.ansible_vault),
    (_context.MNEMONIC_GATE, True, _context.mnemonic),
    (_context.TOTP_GATE, True, _lines(_context.TOTP_GATE, _context.totp)),
    (_context.WALLET_GATE, True, _lines(_context.WALLET_GATE, _context.wallet_keys)),
    (_context.PRINTED_TOKEN_GATE, True, _context.printed_tokens),
    (_context.ECHOED_GATE, True, _lines(_context.ECHOED_GATE, _context.echoed)),
    (("net",), True, lambda t: _NET_USE().sub(_net_use, t)),
    (
        (
            "ghp_",
            "gho_",
            "ghu_",
            "ghs_",
            "ghr_",
            "github_pat_",
            "glpat-",
            "_live_",
            "sk-ant-",
            "xox",
        ),
        False,
        lambda t: _CUT_TOKEN().sub(lambda m: _tag("token"), t),
    ),
    ((":",), False, lambda t: _PGPASS().sub(_pgpass, t)),
    (("=", ":"), False, lambda t: _NAMED().sub(_named, t)),
    ((), False, _context.cards),  # no literal: a network's prefix and the Luhn digit decide
    ((), False, _nfkc),  # after the rest: a line they redacted as it is keeps its characters
    ((), False, lambda t: _CANDIDATE().sub(_candidate, t)),
    ((), False, lambda t: _MID_CANDIDATE().sub(_mid_random, t)),
    ((), False, lambda t: _SHORT_B64().sub(_short_base64, t)),
]


@functools.lru_cache(maxsize=16384)
def redact(text: str) -> str:
    """``text`` with every secret found replaced by ``[REDACTED:<kind>]``; the rest stays readable.

    Cached: the same commands and error lines recur across a history's sessions.
    """
    return _redact(text) if text else text


def _redact(text: str, decode: bool = True) -> str:
    # Steps run in order on the text as the earlier ones left it, so gates look at that text too.
    # ``decode``: whether base64 is looked into (not again inside decoded text).
    # One scan instead of a gate check per vendor format: no literal, no token step.
    plan = _plan(_STEPS, decode, bool(_ANY_TOKEN().search(text)))
    live, k = plan.live(text), 0
    while k < len(live):
        number = live[k]
        new = plan.steps[number](text)
        if new != text:  # the later steps' gates are asked again, of the text as it is now
            text, live, k = new, plan.live(new, after=number), 0
        else:
            k += 1
    return text


class _Plan:
    """Which of a list of steps a text's literals open. Every literal of every gate is looked
    for once a text, in one pass over them, and maps to the steps it opens; asking the steps'
    gates one by one (73 steps a text, 180 where a vendor literal is, each a Python loop over
    its literals) cost a tenth of a second a run, more than the patterns themselves."""

    def __init__(self, steps: list[tuple[tuple[str, ...], bool, Callable[[str], str]]]) -> None:
        self.steps = [step for _, _, step in steps]
        opens: dict[tuple[bool, str], list[int]] = {}
        always: list[int] = []
        for number, (gate, fold, _) in enumerate(steps):
            if not gate:
                always.append(number)
            for needle in gate:
                opens.setdefault((fold, needle), []).append(number)
        self.always = always
        self.raw = [(needle, numbers) for (fold, needle), numbers in opens.items() if not fold]
        self.folded = [(needle, numbers) for (fold, needle), numbers in opens.items() if fold]

    def live(self, text: str, after: int = -1) -> list[int]:
        """The steps whose gate ``text`` opens (a literal in it, or in its folded form for the
        re.I patterns), in order, those after step number ``after`` only."""
        opened = {n for needle, numbers in self.raw if needle in text for n in numbers}
        if self.folded:
            folded = _fold(text)
            opened.update(n for needle, numbers in self.folded if needle in folded for n in numbers)
        opened.update(self.always)
        return sorted(n for n in opened if n > after)


_PLANS: dict[tuple[int, bool, bool], tuple[object, _Plan]] = {}


def _plan(
    steps: list[tuple[tuple[str, ...], bool, Callable[[str], str]]], decode: bool, tokens: bool
) -> _Plan:
    """The plan of ``steps`` (without the vendor token steps unless ``tokens``; the base64 steps
    replaced by one that does not decode unless ``decode``), made once. Keyed by the list itself:
    tests swap ``_STEPS`` for an ungated copy."""
    key = (id(steps), decode, tokens)
    cached = _PLANS.get(key)
    if cached is None or cached[0] is not steps:
        chosen = steps if decode else [*steps[:-3], ((), False, _no_decode)]
        cached = _PLANS[key] = (steps, _Plan(chosen if tokens else chosen[len(_TOKENS) :]))
    return cached[1]


def _no_decode(text: str) -> str:
    return _CANDIDATE().sub(lambda m: _candidate(m, decode=False), text)


_BARE_TOKEN = lazy(r"[A-Za-z0-9+/_\-.=:]{16,200}")
_WORDISH = lazy(r"[a-z]{4,}|[A-Z][a-z]{3,}")


def bare_token(text: str) -> str:
    """A typed prompt that is nothing but one credential-shaped token (a key pasted into the
    wrong window) redacted whole: too short for the high-entropy rule and named by no pattern,
    yet never words. Anything with a space, a word of four letters, hex, or few letters stays."""
    core = text.strip()
    if (
        len(core) < 16
        or not _BARE_TOKEN().fullmatch(core)
        or re.fullmatch(r"[0-9a-fA-F]+", re.sub(r"[-_.:/]", "", core))  # SHAs, UUIDs, MACs
        or public_id(core)
        or _WORDISH().search(core)
        or not any(c.isdigit() for c in core)
        or sum(c.isalpha() for c in core) < 6  # dates, versions, addresses
    ):
        return text
    return _tag("token")


def redact_blocks(text: str) -> str:
    """Only the secrets that span lines (a YAML block scalar's value, an expect script's answer
    to a password prompt, an Ansible vault's payload, a recovery phrase under its label), for a
    caller that goes on to redact line by line: alone, the value's line names no secret. Cheap
    where they cannot be: literal checks."""
    folded = _fold(text)
    if "\n" in text and any(n in folded for n in _NAMES) and ("|" in text or ">" in text):
        text = _YAML_BLOCK().sub(_yaml_block, text)
    if "send" in text:
        text = _EXPECT_SEND().sub(_expect_send, text)
    if "\n" in text and _gate(_slots.LABEL_GATE, folded):
        text = _slots.label_lines(text)
    if "<<" in text and "\n" in text:
        text = _slots.stdin(text)
    if "$ANSIBLE_VAULT;" in text:
        text = _context.ansible_vault(text)
    if "\n" in text and _gate(_context.MNEMONIC_GATE, folded):
        text = _context.mnemonic(text)
    return text


_TAG = lazy(r"\[REDACTED:[a-z0-9_]+\]")


@functools.lru_cache(maxsize=1024)
def found_in(context: str) -> tuple[str, ...]:
    """The secrets redaction finds in ``context`` (a whole command), longest first: what each
    marker in its redacted form stands for, by aligning the kept text around the markers."""
    clean = redact(context)
    if clean == context or len(context) > 8192:
        return ()
    kept = _TAG().split(clean)
    if len(kept) > 40:
        return ()
    pattern = "(.+?)".join(re.escape(k) for k in kept)
    m = re.fullmatch(pattern, context, re.S)
    if m is None:  # the kept text changed too (a folded line): none to align
        return ()
    return tuple(
        sorted({g for g in m.groups() if len(g.strip("'\" ")) >= 4}, key=len, reverse=True)
    )


def redact_with(field: str, context: str) -> str:
    """``field`` redacted, and redacted as part of ``context`` too: a field cut from the command
    it belongs to (the flags a fix added, without the program that makes ``-p`` a password)
    shows none of what the whole command's redaction found."""
    out = redact(field)
    for secret in found_in(context) if context else ():
        if secret in out:
            out = out.replace(secret, _tag("secret"))
    return out


def has_secret(text: str) -> bool:
    return redact(text) != text


def fingerprint(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _gate(needles: tuple[str, ...], text: str) -> bool:
    """Whether a pattern may match: no gate, or one of its literals is in the text (folded, for
    the re.I patterns)."""
    return not needles or any(needle in text for needle in needles)


def redact_json(value: object) -> object:
    """Every string inside a JSON-like value, redacted (for --json output and state)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_json(v) for v in value]
    if isinstance(value, dict):
        return {k: redact_json(v) for k, v in value.items()}
    return value
