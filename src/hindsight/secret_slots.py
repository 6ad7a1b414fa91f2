"""Secrets by the slot they stand in on a command line, whatever the program (issue #25).

Rules per program trail the next program; what a command line says is secret does not: an
option whose name says secret (in any common spelling and a few languages), a short option
that takes the password of the program it belongs to (a table of program kinds: data, below),
a positional password where a program's kind takes one, a password fed on stdin and the command
that fed it, the value of a subcommand that stores a secret, the line after a label. Each step
is called by ``redact`` behind a literal gate (tests/guard/test_gates.py checks them).
"""

from __future__ import annotations

import re

from hindsight.randomness import lazy, looks_random

# --- an option whose name says secret -------------------------------------------------------

# Words of an option's name that say its value is a secret (any value), and the weaker ones
# (``--key``, ``--auth``) whose value must also look like one: a file, a name, a scheme stays.
_STRONG_WORDS = (
    "pass|passwd|password|passwort|passphrase|passcode|pw|pwd|psw|pswd|secret|token|apikey|"
    "credential|credentials|creds|cred|bearer|contraseña|contrasena|kennwort|wachtwoord|mdp|"
    "motdepasse|senha|haslo|hasło|lozinka|parola|salasana|losenord|lösenord|passord|"
    "パスワード|密码|密碼|비밀번호"
)
_OPTION_WORDS = (
    r"pass|pw|psw|secret|token|key|auth|cred|bearer|contrase(?:ñ|n)a|kennw|wachtw|mdp|"
    r"mot[-_.]?de[-_.]?passe|senha|has(?:ł|l)o|lozinka|parola|salasana|l(?:ö|o)senord|passord|"
    r"パスワード|密码|密碼|비밀번호"
)
OPTION_GATE = (
    "pass",
    "pw",
    "psw",
    "secret",
    "token",
    "key",
    "auth",
    "cred",
    "bearer",
    "contrase",
    "kennw",
    "wachtw",
    "mdp",
    "senha",
    "hasło",
    "haslo",
    "lozinka",
    "parola",
    "salasana",
    "senord",
    "passord",
    "パスワード",
    "密码",
    "密碼",
    "비밀번호",
)
_VALUE = r"(?P<q>['\"])?(?P<value>(?(q)[^'\"\n]+|[^\s'\";|&`),]+))(?(q)(?P=q))"
# ``--name VALUE``, ``--name=VALUE``, ``-name VALUE`` (Java, Go), ``-Dname=VALUE``,
# ``/name:VALUE`` (Windows), ``"--name", "VALUE"`` (an argument list in code or JSON).
_OPTION = lazy(
    r"(?P<pre>(?:(?<![^\s'\"(\[,=])--?|(?<![^\s'\"])/)"
    rf"(?P<name>[\w.\-]*?(?:{_OPTION_WORDS})[\w.\-]*)"
    r"(?P<sep>=|(?<=[\w.\-]):(?=\S)|[ \t]+|['\"][ \t]*,[ \t]*(?=['\"])))" + _VALUE,
    re.I,
)
_NAME_WORDS = lazy(r"[A-Z]?[a-zäöüñß\u3040-\uffff]+|[A-Z]+(?![a-z])|\d+")
# Words after the secret word that say the value is about it, not it (--password-file x).
_ABOUT = frozenset(
    [
        "file",
        "files",
        "path",
        "paths",
        "dir",
        "name",
        "names",
        "id",
        "ids",
        "type",
        "length",
        "len",
        "env",
        "var",
        "variable",
        "stdin",
        "fd",
        "cmd",
        "command",
        "helper",
        "prompt",
        "url",
        "uri",
        "mode",
        "method",
        "header",
        "policy",
        "store",
        "manager",
        "source",
        "kind",
        "format",
        "size",
        "count",
        "min",
        "max",
        "ttl",
        "expiry",
        "expires",
        "lifetime",
        "age",
        "seconds",
        "timeout",
        "version",
        "arn",
        "ref",
        "field",
        "label",
        "hint",
        "algorithm",
        "algo",
        "hash",
        "hasher",
        "scheme",
        "scopes",
        "scope",
        "endpoint",
        "provider",
        "backend",
        "plugin",
        "strategy",
        "type",
        "server",
        "host",
        "port",
        "user",
        "username",
        "login",
        "account",
        "region",
        "location",
        "profile",
        "pattern",
        "regex",
        "rotation",
        "reset",
        "required",
        "enabled",
        "template",
        "prefix",
        "suffix",
        "bits",
        "curve",
        "size",
        "usage",
        "index",
        "ring",
        "keyring",
        "server",
        "servers",
        "sort",
        "partition",
        "primary",
        "foreign",
        "routing",
        "public",
        "pub",
        "cache",
        "group",
        "object",
        "public",
        "dedup",
        "idempotency",
        "sign",
        "signing",
        "recv",
        "send",
        "list",
    ]
)
# First words that make the option a switch: the word after it is the next argument.
_SWITCH = frozenset(
    [
        "ask",
        "no",
        "prompt",
        "skip",
        "require",
        "requires",
        "use",
        "with",
        "without",
        "allow",
        "disable",
        "enable",
        "show",
        "save",
        "store",
        "remember",
        "forget",
        "reset",
        "change",
        "generate",
        "gen",
        "random",
        "hide",
        "mask",
        "force",
        "insecure",
        "check",
        "verify",
        "validate",
        "read",
        "print",
        "keep",
        "list",
        "rotate",
        "new",
        "refresh",
        "revoke",
    ]
)
_WEAK = frozenset(["key", "auth", "keys"])
_FILE_END = lazy(
    r"\.(?:pem|key|crt|cer|der|p12|pfx|jks|json|ya?ml|txt|env|gpg|asc|pub|conf|cfg|ini|toml|"
    r"kdbx|keystore|ppk)$",
    re.I,
)


def switch(name: str) -> bool:
    """An option that takes no value (``--ask-pass``, ``--tokenize``): what follows is the next
    argument."""
    words = _words(name)
    return bool(words) and (words[0] in _SWITCH or words[0].startswith(("tokeniz", "secretar")))


def _words(name: str) -> list[str]:
    return [w.lower() for w in _NAME_WORDS().findall(name)]


def _option_kind(name: str) -> str | None:
    """'strong', 'weak' or None: whether an option's name says its value is a secret."""
    words = _words(name)
    if not words or words[0] in _SWITCH:
        return None
    lower = name.lower()
    if "mot" in words and "passe" in words:
        words.append("motdepasse")
    for n, word in enumerate(words):
        strong = re.fullmatch(_STRONG_WORDS, word) or (
            len(word) > 4 and re.search(r"(?:pass|passwd|password|pwd|secret|token)$", word)
        )
        weak = word in _WEAK or (len(word) > 3 and word.endswith(("key", "auth")))
        if not (strong or weak):
            continue
        rest = words[n + 1 :]
        if any(w in _ABOUT for w in rest) or word in ("keyring", "keys"):
            return None
        if word.startswith("pub") or "public" in words[:n]:
            return None
        return "strong" if strong else "weak"
    return "strong" if "パスワード" in lower else None


def _not_a_value(value: str) -> bool:
    from hindsight.redact import _kept

    return (
        _kept(value)
        or value.startswith(("-", "@", "<", "~", "/", "./", "../", "%", "{", "$"))
        or "://" in value
        or bool(_FILE_END().search(value))
        or value.startswith(("env:", "file:", "fd:", "keychain:"))
        or value in ("stdin", "-")
    )


def _weak_secret(value: str) -> bool:
    """A value after ``--key``/``--auth``: a secret only when it reads as one (letters and
    digits, or random), never a path, a file, a dotted name, a word or a number."""
    core = value.split(":", 1)[1] if ":" in value else value
    if len(core) < 8 or "/" in core or core.isalpha() or core.isdigit():
        return False
    if re.fullmatch(r"[a-z0-9]+(?:[-.][a-z0-9]+)+", core):
        return False  # a name: --key deploy-2024
    return looks_random(core, 8, mean_run=3.5) or (
        any(c.isdigit() for c in core) and any(c.isalpha() for c in core) and len(core) >= 12
    )


def options(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        value, name = m.group("value"), m.group("name")
        if "[REDACTED" in m.group(0) or _not_a_value(value):
            return m.group(0)
        kind = _option_kind(name)
        from hindsight.redact import _NOT_A_KEY_FLAG

        weak = kind == "weak"
        if kind is None or (weak and (_NOT_A_KEY_FLAG().search(name) or not _weak_secret(value))):
            return m.group(0)
        if (
            m.group("sep").strip() == ""
            and not m.group("q")
            and value.isalpha()
            and kind != "strong"
        ):
            return m.group(0)
        keep = m.start("value") - m.start()
        head = m.group(0)[:keep]
        if kind == "weak" and ":" in value:  # --auth user:SECRET: the user stays
            head += value.split(":", 1)[0] + ":"
        return head + "[REDACTED:password]" + (m.group("q") or "")

    return _OPTION().sub(one, text)


# --- short options that take a program's password: data ---------------------------------------

# (programs of one kind, the short options that take its password, whether a space may stand
# between option and value). mysql's clients read a spaced ``-p x`` as the database (redact.py's
# _MYSQL_SPACED decides those); ``docker/podman/helm ... login -p`` is redact.py's login rule.
PASSWORD_OPTIONS: list[tuple[tuple[str, ...], str, bool]] = [
    (
        (
            "mysql", "mariadb", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow",
            "mysqlcheck", "mysqlpump", "mysqlslap", "mysqlbinlog", "mariadb-dump",
            "mariadb-admin", "mariadb-import", "mariadb-check", "mariadb-show", "mariadb-slap",
        ),
        "p",
        False,
    ),
    (("mycli", "mydumper", "myloader"), "p", True),
    (
        (
            "mongo", "mongosh", "mongodump", "mongorestore", "mongoimport", "mongoexport",
            "mongostat", "mongotop", "mongofiles",
        ),
        "p",
        True,
    ),
    (("redis-cli", "valkey-cli", "keydb-cli", "redis-benchmark", "valkey-benchmark",
      "memtier_benchmark", "iredis"), "a", True),
    (("mosquitto_pub", "mosquitto_sub", "mosquitto_rr", "mqttx"), "P", True),
    (("rabbitmqadmin",), "p", True),
    (("cqlsh", "cypher-shell", "hdbsql", "couchbase-cli", "cbq", "cbimport", "cbexport",
      "cbbackupmgr", "sshpass", "rdesktop", "psexec", "psexec.py", "smbmap", "crackmapexec",
      "netexec", "nxc", "evil-winrm", "hydra", "medusa", "twine", "ipmitool"), "p", True),
    (("ipmitool", "sqlcmd", "bcp", "osql", "isql", "tsql", "sqsh", "isql-fb"), "P", True),
    (("vsql", "ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami"), "w", True),
    (("rar", "unrar", "7z", "7za", "7zz"), "p", False),
    (("xfreerdp", "xfreerdp3", "wlfreerdp", "sdl-freerdp"), "/p:", False),
]  # fmt: skip
_SHORT_VALUE = r"(?!['\"]?\$)(?P<value>'[^'\n]+'|\"[^\"\n]+\"|[^\s'\";|&`]+)"


def _short_pattern() -> str:
    parts = []
    for programs, option, spaced in PASSWORD_OPTIONS:
        names = "|".join(re.escape(p) for p in sorted(programs, key=len, reverse=True))
        flag = re.escape(option) if option.startswith("/") else "-" + re.escape(option)
        gap = r"(?:[ \t]+(?!-)|(?=[^\s\-]))" if spaced else r"(?=[^\s\-])"
        parts.append(rf"(?:{names})(?:\.exe)?(?=[\s'\"])[^\n|;&]*?[\s'\"]{flag}{gap}")
    return r"(?P<pre>(?<![\w.\-])(?:" + "|".join(parts) + "))" + _SHORT_VALUE


_SHORT = lazy(_short_pattern())
SHORT_GATE = ("-p", "-a", "-w", "/p:")  # folded: -P too


def short_options(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        value = m.group("value")
        if "[REDACTED" in m.group(0) or _not_a_value(value.strip("'\"")):
            return m.group(0)
        return m.group("pre") + "[REDACTED:password]"

    return _SHORT().sub(one, text)


# --- a positional password ----------------------------------------------------------------------

_WORD = r"(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s'\";|&]+)"
POSITIONAL: list[tuple[tuple[str, ...], str]] = [
    # db2 connect to DB user U using P
    (("using",), r"\bconnect\s+to\s+\S+\s+user\s+\S+\s+using\s+"),
    # mc alias set NAME URL ACCESS_KEY SECRET_KEY (and the older `mc config host add`)
    (("alias", "host"), rf"\bmc\s+(?:alias\s+set|config\s+host\s+add)\s+{_WORD}\s+{_WORD}\s+{_WORD}\s+"),
    # neo4j-admin (dbms) set-initial-password P
    (("initial-password",), r"\bset-initial-password\s+(?:--\S+\s+)*"),
    # mosquitto_passwd -b FILE USER P
    (("mosquitto_passwd",), rf"\bmosquitto_passwd\s+(?:-\w+\s+)*-b\s+(?:-\w+\s+)*{_WORD}\s+{_WORD}\s+"),
    # nmcli device wifi connect SSID password P; wpa_passphrase SSID P
    (("nmcli",), r"\bnmcli\b[^\n|;&]*?\s(?:password|wifi-sec\.psk|802-1x\.password)\s+"),
    (("wpa_passphrase",), rf"\bwpa_passphrase\s+{_WORD}\s+"),
    # openssl passwd [-1|-6|-apr1 ...] P; mkpasswd [-m x] P
    (("passwd",), r"\bopenssl\s+passwd\s+(?:-(?!stdin\b)\w+(?:\s+(?!-)\S+)?\s+)*"),
    (("mkpasswd",), r"\bmkpasswd\s+(?:-(?!s\b|-stdin)\S+(?:\s+(?!-)\w+)?\s+)*"),
    # pdftk in.pdf input_pw P; qpdf's --password= is an option named for it
    (("input_pw", "user_pw", "owner_pw"), r"\b(?:input_pw|user_pw|owner_pw)\s+"),
    # unixODBC's isql DSN USER PASSWORD
    (("isql",), rf"(?<![\w\-])isql\s+(?!-){_WORD}\s+(?!-){_WORD}\s+"),
    # security add-generic-password ... -w P (macOS keychain)
    (("security",), r"\bsecurity\s+add-(?:generic|internet)-password\b[^\n|;&]*?\s-w\s*"),
]  # fmt: skip
_POSITIONAL = [
    (gate, lazy(rf"(?P<pre>{pattern})(?!-){_SHORT_VALUE}")) for gate, pattern in POSITIONAL
]


def positional(text: str) -> str:
    from hindsight.redact import _fold

    folded = _fold(text)
    for gate, pattern in _POSITIONAL:
        if any(g in folded for g in gate):
            text = pattern().sub(_positional_one, text)
            folded = _fold(text)
    return text


def _positional_one(m: re.Match[str]) -> str:
    value = m.group("value")
    if "[REDACTED" in m.group(0) or _not_a_value(value.strip("'\"")):
        return m.group(0)
    return m.group("pre") + "[REDACTED:password]"


POSITIONAL_GATE = tuple(g for gate, _ in POSITIONAL for g in gate)


# --- a password read from stdin, and what fed it ------------------------------------------------

# A command that reads a secret from its standard input: an option that says so, or a program
# (or subcommand) whose input is a password or a secret's value.
_STDIN_OPTION = (
    r"(?:--password-stdin|--passphrase-stdin|--passwd-on-stdin|--password-from-stdin|"
    r"--passphrase-fd[= ]0\b|-pass(?:in)?\s+(?:stdin|fd:0)\b|--data-file[= ]-(?!\S)|"
    r"--from-file=(?:[^\s=]*=)?/dev/stdin|--secret-string\s+-(?!\S))"
)
_STDIN_PROGRAM = (
    r"(?:sudo\s+(?:-\S+\s+)*)?(?:(?:sudo\s+(?:-\w+\s+)*-\w*S\w*)|passwd|chpasswd|chgpasswd|"
    r"kinit|cryptsetup|smbpasswd|vncpasswd|htpasswd\s+(?:-\w+\s+)*-\w*i|"
    r"openssl\s+passwd\s+-stdin|mkpasswd\s+(?:-\S+\s+)*-s|"
    r"wrangler\s+(?:pages\s+)?secret\s+put|vercel\s+env\s+add|netlify\s+env:set|"
    r"(?:docker|podman)\s+secret\s+create|gh\s+secret\s+set(?![^\n|;&]*\s(?:--body|-b))|"
    r"fly(?:ctl)?\s+secrets\s+import|(?:gopass|pass)\s+insert|secret-tool\s+store|"
    r"keyring\s+set|firebase\s+functions:secrets:set|doppler\s+secrets\s+upload|"
    r"circleci\s+context\s+store-secret|eas\s+secret:create)(?![\w\-])"
)
_READS_STDIN = rf"(?:[^\n|;&]*?{_STDIN_OPTION}|[ \t]*{_STDIN_PROGRAM})"
_FED = lazy(
    r"(?P<pre>\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)*(?:(['\"])%s(?:\\n)?\2[ \t]+)?)"
    r"(?!['\"]?\$)(?P<value>'[^'\n]+'|\"[^\"\n]+\"|[^\s'\";|&`]+)"
    r"(?=[ \t]*\|" + _READS_STDIN + ")"
)
# From the start of a command only: a scan from every position of a long text would cost its
# square.
_READER = (
    rf"(?:^|(?<=[\n|;&(]))[ \t]*(?:[^\n|;&<]*?{_STDIN_OPTION}|{_STDIN_PROGRAM}|"
    rf"[^\n|;&<]*?\s{_STDIN_PROGRAM})[^\n|;&<]*?"
)
_HERE_STRING = lazy(
    rf"(?P<pre>{_READER}<<<[ \t]*)(?!['\"]?\$)(?P<value>'[^'\n]+'|\"[^\"\n]+\"|[^\s'\";|&`]+)"
)
_HEREDOC = lazy(
    rf"(?P<pre>{_READER}<<-?[ \t]*(['\"]?)(?P<tag>\w+)\2[^\n]*\n)(?P<body>[^\n]+)"
    r"(?=\n[ \t]*(?P=tag)\b)"
)
STDIN_GATE = ("echo", "printf", "<<")


def stdin(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        value = m.group("value")
        if "[REDACTED" in value or _not_a_value(value.strip("'\"")):
            return m.group(0)
        return m.group("pre") + "[REDACTED:password]"

    if "echo" in text or "printf" in text:
        text = _FED().sub(one, text)
    if "<<<" in text:
        text = _HERE_STRING().sub(one, text)
    if "<<" in text and "\n" in text:
        text = _HEREDOC().sub(
            lambda m: (
                m.group(0)
                if "[REDACTED" in m.group("body") or _not_a_value(m.group("body").strip())
                else m.group("pre") + "[REDACTED:password]"
            ),
            text,
        )
    return text


# --- the value of a subcommand that stores a secret ---------------------------------------------

# (gate, command, how its values are given): ``pairs``: every NAME=VALUE after it is a secret;
# ``config``: NAME=VALUE config vars, a secret unless a plain word, number or flag value;
# ``option``: the named options' values; ``literal``: kubectl's --from-literal=NAME=VALUE;
# ``name-value``: NAME VALUE after the command.
STORES: list[tuple[tuple[str, ...], str, str]] = [
    (("secrets",), r"\bfly(?:ctl)?\s+secrets\s+set", "pairs"),
    (("secrets",), r"\b(?:doppler|supabase|infisical)\s+secrets\s+set", "pairs"),
    (("vault",), r"\bvault\s+kv\s+(?:put|patch)|\bvault\s+write\s+\S*secret\S*", "pairs"),
    (("functions:config:set",), r"\bfirebase\s+functions:config:set", "pairs"),
    (("item",), r"\bop\s+item\s+(?:create|edit)", "pairs"),
    (("travis",), r"\btravis\s+encrypt", "pairs"),
    (("config:set",), r"\b(?:heroku|dokku)\s+config:set", "config"),
    (("railway",), r"\brailway\s+variables\s+(?:set|--set)", "config"),
    (("appsettings",), r"\baz\s+(?:webapp|functionapp)\s+config\s+appsettings\s+set", "config"),
    (("ssm",), r"\baws\s+ssm\s+put-parameter", "option:value"),
    (("keyvault",), r"\baz\s+keyvault\s+secret\s+set", "option:value"),
    (("secret:",), r"\beas\s+secret:\S+", "option:value"),
    (("glab",), r"\bglab\s+variable\s+(?:set|update)", "option:value"),
    (("secret",), r"\bgh\s+secret\s+set", "option:body|b"),
    (("from-literal",), r"\bkubectl\s+create\s+secret", "literal"),
    (("env:set",), r"\bnetlify\s+env:set", "name-value"),
    (("convex",), r"\bconvex\s+env\s+set", "name-value"),
    (("pulumi",), r"\bpulumi\s+config\s+set\s+(?:--secret\s+)?(?=\S+\s+\S+[^\n|;&]*--secret)|"
     r"\bpulumi\s+config\s+set\s+--secret", "name-value"),
    (("glab",), r"\bglab\s+variable\s+(?:set|update)", "name-value"),
]  # fmt: skip
_STORES = [
    (gate, lazy(rf"(?P<cmd>{command})(?P<rest>[^\n|;&]*)"), how) for gate, command, how in STORES
]
STORE_GATE = tuple(sorted({g for gate, _, _ in STORES for g in gate}))
_ARG = lazy(r"'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"]+(?:(?:'[^'\n]*'|\"[^\"\n]*\")[^\s'\"]*)*")
_PAIR = lazy(r"(?P<name>[A-Za-z_][\w.\-]*)=(?P<value>.+)", re.S)
_PLAIN_CONFIG = lazy(
    r"(?:[a-z]+|\d+(?:\.\d+)*|true|false|yes|no|on|off|[A-Z]+|[a-z]+(?:[-_.][a-z]+)*)", re.I
)


def stores(text: str) -> str:
    from hindsight.redact import _fold

    folded = _fold(text)
    for gate, pattern, how in _STORES:
        if any(g in folded for g in gate):
            text = pattern().sub(lambda m, h=how: _store(m, h), text)  # type: ignore[misc]
            folded = _fold(text)
    return text


def _secret_value(value: str, strict: bool) -> bool:
    bare = value.strip("'\"")
    if not bare or "[REDACTED" in bare or _not_a_value(bare):
        return False
    return strict or not _PLAIN_CONFIG().fullmatch(bare)


def _store(m: re.Match[str], how: str) -> str:
    rest = m.group("rest")
    words = list(_ARG().finditer(rest))
    spans: list[tuple[int, int]] = []
    if how in ("pairs", "config", "literal"):
        for w in words:
            word = w.group(0)
            if how == "literal":
                if not word.startswith("--from-literal="):
                    continue
                word, offset = word[len("--from-literal=") :], w.start() + len("--from-literal=")
            elif word.startswith("-"):
                continue
            else:
                offset = w.start()
            p = _PAIR().fullmatch(word)
            if p and _secret_value(p.group("value"), how != "config"):
                spans.append((offset + p.start("value"), offset + p.end("value")))
    elif how.startswith("option:"):
        names = how.split(":", 1)[1].split("|")
        for n, w in enumerate(words):
            word = w.group(0)
            for name in names:
                dash = "--" if len(name) > 1 else "-"
                if word == dash + name and n + 1 < len(words):
                    v = words[n + 1]
                    if _secret_value(v.group(0), True):
                        spans.append((v.start(), v.end()))
                elif word.startswith(dash + name + "=") or (
                    dash == "-" and word.startswith(dash + name) and len(word) > 2
                ):
                    cut = len(dash + name) + (word[len(dash + name)] == "=")
                    if _secret_value(word[cut:], True):
                        spans.append((w.start() + cut, w.end()))
    else:  # name-value: the second positional word
        positional = [w for w in words if not w.group(0).startswith("-")]
        if len(positional) >= 2 and _secret_value(positional[1].group(0), True):
            spans.append((positional[1].start(), positional[1].end()))
    if not spans:
        return m.group(0)
    out, last = [], 0
    for start, end in sorted(spans):
        value = rest[start:end]
        q = value[0] if value[:1] in "'\"" and value[-1:] == value[:1] and len(value) > 1 else ""
        out += [rest[last:start], f"{q}[REDACTED:secret]{q}"]
        last = end
    return m.group("cmd") + "".join(out) + rest[last:]


# --- the line after a label ---------------------------------------------------------------------

_LABEL_WORDS = (
    r"password|passwd|passphrase|passcode|pin|token|secret|api[ _\-]?key|access[ _\-]?key|"
    r"secret[ _\-]?key|private[ _\-]?key|recovery[ _\-]?code|credentials?|"
    r"contraseña|contrasena|passwort|kennwort|mot de passe|mdp|senha|wachtwoord|hasło|"
    r"パスワード|密码|密碼|비밀번호"
)
_LABEL = lazy(
    r"(?im)^(?P<pre>[ \t>#*\-]*(?:[\w'’ ]{0,40}?\b)?(?:" + _LABEL_WORDS + r")"
    r"(?:[ \t]+(?:is|was|ist|est|es|é))?[ \t]*[:：=]?[ \t]*\n[ \t>]*)"
    r"(?P<value>[^\s]{4,200})[ \t]*$"
)
LABEL_GATE = (
    "pass",
    "pin",
    "token",
    "secret",
    "key",
    "code",
    "credential",
    "contrase",
    "kennwort",
    "mdp",
    "senha",
    "wachtwoord",
    "hasło",
    "パスワード",
    "密码",
    "密碼",
    "비밀번호",
)


def label_lines(text: str) -> str:
    """A value alone on the line after a label that names it ("Password:\\nS3cr3t"): lines
    redacted one by one would see neither together."""
    if "\n" not in text:
        return text

    def one(m: re.Match[str]) -> str:
        value = m.group("value")
        label = m.group("pre").strip().lower()
        if (
            "[REDACTED" in value
            or _not_a_value(value)
            or value.endswith(":")
            or (value.isalpha() and (value.islower() or value.istitle()))
            or (label.rstrip(":：= ").endswith("pin") and not value.isdigit())
            or (not label.endswith((":", "：", "=", "is")) and not looks_random(value, 8))
        ):
            return m.group(0)
        return m.group("pre") + "[REDACTED:secret]"

    return _LABEL().sub(one, text)
