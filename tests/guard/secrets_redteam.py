"""Fake secrets in the shapes that got past the guard in the red-team pass (issue #11), by class.

REDTEAM: (kind, position, line as it appears, the secret that must vanish). Values are generated
(guard/fakes.py); the shapes are those of real tools' output and real credential files.
"""

from __future__ import annotations

import json
from urllib.parse import quote

from guard.fakes import ALNUM, B64, DIGITS, HEX, LOWER, LOWER_ALNUM, URLSAFE, Fakes

F = Fakes(12)

AWS_SECRET = [F.s(B64, 40) for _ in range(4)]
PW = [F.word_password() for _ in range(40)]
HEXT = [F.s(HEX, n) for n in (32, 40, 64, 32, 48, 32)]
LOW = [F.s(LOWER_ALNUM, n) for n in (24, 32, 40, 20)]
RAND = [F.s(ALNUM, n) for n in (24, 28, 32, 20, 40, 22, 26, 30)]
UUIDS = [F.uuid() for _ in range(6)]
AT_PW = [F.s(ALNUM, 5) + "@" + F.s(ALNUM, 6) + "!" for _ in range(4)]
USER_PASS = [f"ci-bot:{p}" for p in PW[30:36]]
B64_CREDS = [F.b64(c.encode()) for c in USER_PASS]
PEM_B64 = F.b64(F.pem("RSA PRIVATE KEY", 2).encode())
GHP = "ghp_" + F.s(ALNUM, 36)
NPM = "npm_" + F.s(ALNUM, 36)
PYPI = "pypi-AgEIcHlwaS5vcmc" + F.s(URLSAFE, 70)
K8S_TOKEN = F.s(LOWER_ALNUM, 6) + "." + F.s(LOWER_ALNUM, 16)
PEM_EC = F.pem("EC PRIVATE KEY", 3)
PEM_PKCS8 = F.pem("PRIVATE KEY", 3)
PEM_OPENSSH = F.pem("OPENSSH PRIVATE KEY", 3)
PEM_PGP = F.pem("PGP PRIVATE KEY BLOCK", 3)
RCLONE = F.s(URLSAFE, 40)
LONG_PROMPT = "please look at this config and tell me why the deploy fails " * 5

REDTEAM: list[tuple[str, str, str, str]] = [
    # Alphabets and encodings that split a key below the entropy floor.
    ("aws_secret_bare", "stdout", AWS_SECRET[0], AWS_SECRET[0]),
    ("aws_secret_bare", "stdout", f"{AWS_SECRET[1]}\n", AWS_SECRET[1]),
    ("aws_secret_bare", "prompt", f"the secret half is {AWS_SECRET[2]} ok?", AWS_SECRET[2]),
    (
        "url_encoded_key",
        "command",
        f"curl 'https://api.acme.io/v1/items?sig={quote(AWS_SECRET[3], safe='')}&limit=5'",
        quote(AWS_SECRET[3], safe=""),
    ),
    (
        "url_encoded_key",
        "error",
        f"GET /v1/report?apikey={quote(RAND[0] + '+/' + RAND[1], safe='')} 403",
        quote(RAND[0] + "+/" + RAND[1], safe=""),
    ),
    ("dotted_key", "stdout", f"key: {RAND[3]}.{RAND[5]}.{RAND[6]}", f"{RAND[3]}.{RAND[5]}"),
    ("slashed_key", "cat", f"signing: {RAND[2][:16]}/{RAND[2][16:]}/{RAND[7][:12]}", RAND[2][16:]),
    # Hex-only and lowercase tokens.
    ("hex_token", "cat", f"DATADOG_API_KEY={HEXT[0]}", HEXT[0]),
    ("hex_token", "command", f"export TWILIO_AUTH_TOKEN={HEXT[1]}", HEXT[1]),
    ("hex_token", "cat", f"HMAC_SALT={HEXT[2]}", HEXT[2]),
    ("hex_token", "cat", f'  "license": "{HEXT[3]}",', HEXT[3]),
    ("hex_token", "stdout", f"session_cookie={HEXT[4]}; Path=/; HttpOnly", HEXT[4]),
    ("lowercase_token", "cat", f"SECRET={LOW[0]}", LOW[0]),
    ("lowercase_token", "command", f"SIGNING_SEED={LOW[1]} ./bin/sign release.tar", LOW[1]),
    ("lowercase_token", "cat", f"  app_secret: {LOW[2]}", LOW[2]),
    ("lowercase_token", "prompt", f"the api token is {LOW[3]}", LOW[3]),
    # Short and glued flags.
    ("glued_flag", "command", f"mysql -u root -p{PW[0]} app < dump.sql", PW[0]),
    ("glued_flag", "command", f"mysqldump -uroot -p'{PW[1]}' shop > shop.sql", PW[1]),
    ("short_flag", "command", f"sshpass -p '{PW[2]}' ssh deploy@10.0.0.5", PW[2]),
    ("short_flag", "command", f"redis-cli -h cache -a {PW[3]} ping", PW[3]),
    ("short_flag", "command", f"docker login -u bot -p {PW[4]} registry.acme.io", PW[4]),
    ("glued_flag", "command", f"./manage.py createsuperuser --password={PW[5][:8]}", PW[5][:8]),
    ("short_flag", "command", f"vault login -method=userpass username=ops password={PW[6]}", PW[6]),
    ("short_flag", "command", f"openssl pkcs12 -export -in c.pem -passout pass:{PW[7]}", PW[7]),
    ("short_flag", "command", f"zip -P {PW[8]} backup.zip db.sql", PW[8]),
    ("short_flag", "command", f"htpasswd -b -c .htpasswd admin {PW[9]}", PW[9]),
    ("long_flag", "command", f"./deploy --pw {PW[10]} --env prod", PW[10]),
    ("long_flag", "command", f"kubeadm join 10.0.0.1:6443 --token {K8S_TOKEN}", K8S_TOKEN),
    # Names the assignment patterns did not know.
    ("unknown_name", "cat", f"SESSION_SIGNING={RAND[4]}", RAND[4]),
    ("unknown_name", "cat", f"DSN_AUTH={RAND[5]}", RAND[5]),
    ("unknown_name", "command", f"CREDS={RAND[6]} ./sync.sh", RAND[6]),
    ("unknown_name", "cat", f"  hmac: {RAND[7]}", RAND[7]),
    ("unknown_name", "cat", f"cookie_salt = '{RAND[1]}'", RAND[1]),
    ("unknown_name", "error", f"invalid signature={RAND[0]} for request", RAND[0]),
    # UUID-shaped API keys.
    ("uuid_key", "cat", f"HEROKU_API_KEY={UUIDS[0]}", UUIDS[0]),
    ("uuid_key", "cat", f'heroku_api_key = "{UUIDS[1]}"', UUIDS[1]),
    ("uuid_key", "command", f"curl -H 'X-Api-Key: {UUIDS[2]}' https://api.acme.io/v2", UUIDS[2]),
    ("uuid_key", "stdout", f"Token: {UUIDS[3]}", UUIDS[3]),
    ("uuid_key", "command", f"snyk config set api={UUIDS[4]}", UUIDS[4]),
    ("uuid_key", "cat", f'  "apiKey": "{UUIDS[5]}"', UUIDS[5]),
    # Base64 wrapping a credential.
    ("base64_credential", "error", f"sent header: Basic {B64_CREDS[0]}", B64_CREDS[0]),
    (
        "base64_credential",
        "cat",
        json.dumps({"auths": {"registry.acme.io": {"auth": B64_CREDS[1]}}}, indent=1),
        B64_CREDS[1],
    ),
    ("base64_credential", "command", f"echo {B64_CREDS[2]} | base64 -d", B64_CREDS[2]),
    ("base64_credential", "cat", f"_auth={B64_CREDS[3]}", B64_CREDS[3]),
    ("base64_credential", "cat", f"    client-key-data: {PEM_B64}", PEM_B64[20:60]),
    (
        "base64_credential",
        "command",
        f"curl -H 'authorization:basic {B64_CREDS[4]}' localhost:8080",
        B64_CREDS[4],
    ),
    # Passwords holding '@'.
    ("password_with_at", "command", f"psql postgres://admin:{AT_PW[0]}@db.internal/app", AT_PW[0]),
    (
        "password_with_at",
        "error",
        f"could not connect: mysql://root:{AT_PW[1]}@localhost/x",
        AT_PW[1],
    ),
    ("password_with_at", "cat", f"REDIS_URL=redis://:{AT_PW[2]}@cache:6379/0", AT_PW[2]),
    ("password_with_at", "prompt", f"the db password is {AT_PW[3]}", AT_PW[3]),
    # JSON-escaped quotes.
    (
        "json_escaped",
        "command",
        f'curl -d "{{\\"username\\":\\"ops\\",\\"password\\":\\"{PW[11]}\\"}}" https://acme.io/login',
        PW[11],
    ),
    ("json_escaped", "stdout", json.dumps(json.dumps({"api_key": RAND[2]})), RAND[2]),
    ("json_escaped", "error", f'body: {{\\"token\\": \\"{PW[12]}\\"}}', PW[12]),
    ("json_escaped", "tool_input", json.dumps({"config": f'{{"secret": "{PW[13]}"}}'}), PW[13]),
    # Credential files printed by `cat`.
    ("netrc", "cat", f"machine api.github.com login bob password {PW[14]}", PW[14]),
    ("netrc", "cat", f"machine gitlab.acme.io\n  login deploy\n  password {PW[15]}\n", PW[15]),
    ("pgpass", "cat", f"db.internal:5432:app:admin:{PW[16]}", PW[16]),
    ("pgpass", "cat", f"localhost:*:*:postgres:{PW[17]}\n", PW[17]),
    (
        "aws_credentials",
        "cat",
        f"[prod]\naws_access_key_id = AKIA{F.s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}\n"
        f"aws_secret_access_key = {AWS_SECRET[0]}\naws_session_token = {F.s(B64, 120)}",
        AWS_SECRET[0],
    ),
    ("npmrc", "cat", f"//registry.npmjs.org/:_authToken={NPM}\nalways-auth=true", NPM),
    ("npmrc", "cat", f"//npm.acme.io/:_password={F.b64(PW[18].encode())}", F.b64(PW[18].encode())),
    ("pypirc", "cat", f"[pypi]\nusername = __token__\npassword = {PYPI}\n", PYPI),
    ("pypirc", "cat", f"[acme]\nrepository = https://pypi.acme.io\npassword: {PW[19]}", PW[19]),
    (
        "kubeconfig",
        "cat",
        f"users:\n- name: admin\n  user:\n    token: {K8S_TOKEN}{F.s(LOWER, 4)}\n",
        K8S_TOKEN,
    ),
    ("kubeconfig", "cat", f"- name: ci\n  user:\n    password: {PW[20]}\n", PW[20]),
    ("dotenv", "cat", f"DATABASE_PASSWORD='{PW[21]}'\nDEBUG=false", PW[21]),
    ("dotenv", "cat", f'export STRIPE_KEY="{PW[22]}"', PW[22]),
    ("git_credentials", "cat", f"https://bob:{GHP}@github.com", GHP),
    (
        "maven_settings",
        "cat",
        f"<server><id>acme</id><password>{PW[23]}</password></server>",
        PW[23],
    ),
    ("wp_config", "cat", f"define( 'DB_PASSWORD', '{PW[24]}' );", PW[24]),
    ("htpasswd", "cat", "admin:$apr1$" + F.s(ALNUM, 8) + "$" + F.s(ALNUM, 22), "$apr1$"),
    ("my_cnf", "cat", f"[client]\nuser=root\npassword={PW[25]}", PW[25]),
    (
        "service_account",
        "cat",
        json.dumps({"type": "service_account", "private_key": PEM_PKCS8 + "\n"}),
        json.dumps(PEM_PKCS8)[30:70],
    ),
    ("private_key", "cat", PEM_EC, PEM_EC.split("\n")[2]),
    ("private_key", "cat", PEM_OPENSSH, PEM_OPENSSH.split("\n")[1]),
    ("private_key", "cat", PEM_PGP, PEM_PGP.split("\n")[3]),
    (
        "s3cfg",
        "cat",
        f"[default]\naccess_key = AKIA{F.s('ABCDEFGHJKLMNPQRSTUVWXYZ', 16)}\nsecret_key = {AWS_SECRET[1]}",
        AWS_SECRET[1],
    ),
    ("rclone", "cat", f"[remote]\ntype = sftp\nuser = bob\npass = {RCLONE}", RCLONE),
    # Secrets in typed prompts and tool inputs, in prose.
    ("prose", "prompt", f"my password is {PW[26]} please log in for me", PW[26]),
    ("prose", "prompt", f"try with the passphrase {PW[27]}", PW[27]),
    ("prose", "tool_input", f"PIN code: {F.s(DIGITS, 6)}{PW[28]}", PW[28]),
    # Text that was clipped before it was redacted: the secret straddles the cut.
    ("clipped", "prompt", LONG_PROMPT[:285] + " token " + GHP, GHP),
    ("clipped", "prompt", LONG_PROMPT[:290] + " " + PYPI, PYPI),
    (
        "clipped",
        "command",
        "./release.sh " + "--step verify " * 8 + f"--key {RAND[3]}{RAND[4]}",
        RAND[3] + RAND[4],
    ),
    (
        "clipped",
        "error",
        "E" * 280 + f" bad key sk-ant-api03-{F.s(URLSAFE, 93)}AA",
        "sk-ant-api03-",
    ),
    (
        "clipped",
        "stderr",
        "warning " * 36 + f"AWS_SECRET_ACCESS_KEY={AWS_SECRET[2]}",
        AWS_SECRET[2],
    ),
]

# The second red-team pass (#11): the classes that still got into the report, the digest or
# memory. Drawn after the first pass's values, so those stay as they were.
PW2 = [F.word_password() for _ in range(12)]
R2 = [F.s(ALNUM, n) for n in (28, 24, 28, 26, 22, 14, 22, 28, 30, 20)]
PW3 = [F.word_password() for _ in range(11)]


def _spaced(key: str) -> str:
    return " ".join(key[i : i + 4] for i in range(0, len(key), 4))


REDTEAM += [
    (
        "sql_password",
        "command",
        f"mysql -u root <<SQL\nCREATE USER app IDENTIFIED BY '{PW2[0]}';\nSQL",
        PW2[0],
    ),
    ("sql_password", "command", f"psql -c \"ALTER USER app WITH PASSWORD '{PW2[1]}'\"", PW2[1]),
    ("sql_password", "stdout", f"GRANT ALL ON *.* TO 'ops'@'%' IDENTIFIED BY '{PW2[2]}';", PW2[2]),
    ("windows_setx", "command", f"setx API_TOKEN {R2[0]}", R2[0]),
    ("windows_setx", "command", f'setx /M DB_PASSWORD "{PW2[3]}"', PW2[3]),
    ("net_use", "command", f"net use Z: \\\\fileserver\\share {PW2[4]} /user:ACME\\deploy", PW2[4]),
    ("net_use", "command", f"net use \\\\10.0.0.5\\c$ /user:admin {PW2[5]}", PW2[5]),
    ("ftp_user_pass", "command", f"lftp -u deploy,{PW2[6]} ftp.example.com", PW2[6]),
    ("ftp_user_pass", "command", f"smbclient //nas/backup -U backup%{PW2[7]}", PW2[7]),
    ("positional_token", "command", f"./deploy.sh {R2[1]}", R2[1]),
    ("positional_token", "command", f"./bin/register --url https://ci.acme.io {R2[2]}", R2[2]),
    ("todo_secret", "todo", f"rotate key {R2[3]} after deploy", R2[3]),
    ("branch_secret", "branch", f"fix/{R2[4]}", R2[4]),
    ("file_path_secret", "file_path", f"keys/{R2[8]}.txt", R2[8]),
    (
        "split_over_lines",
        "stdout",
        f"token part 1: ghp_{R2[5]}\ntoken part 2: {R2[6]}",
        f"ghp_{R2[5]}",
    ),
    ("split_over_lines", "stdout", f"token part 2: {R2[6]}", R2[6]),
    ("other_language", "prompt", f"nein, das Passwort lautet {PW2[8]}", PW2[8]),
    ("other_language", "prompt", f"le mot de passe est {PW2[9]}", PW2[9]),
    ("other_language", "prompt", f"la contraseña es {PW2[10]}", PW2[10]),
    ("spaced_key", "prompt", f"no, the api key is {_spaced(R2[7])}", _spaced(R2[7])),
    ("spaced_key", "prompt", f"the token is {_spaced(R2[9])}, use it", _spaced(R2[9])),
    # Third red-team pass: programs that take the password as an argument.
    (
        "password_argument",
        "command",
        f"keytool -importcert -storepass {PW3[0]} -file ca.pem",
        PW3[0],
    ),
    ("password_argument", "command", f"sudo useradd -m -p {PW3[1]} deploy", PW3[1]),
    ("password_argument", "command", f"echo {PW3[2]} | sudo passwd --stdin deploy", PW3[2]),
    ("password_argument", "command", f"sudo rabbitmqctl add_user admin {PW3[3]}", PW3[3]),
    ("password_argument", "command", f"sqlcmd -S db.local -U sa -P {PW3[4]} -Q 'select 1'", PW3[4]),
    ("password_argument", "command", f"mongosh mongodb://db/app -u admin -p {PW3[5]}", PW3[5]),
    ("password_argument", "command", f"gpg --batch --passphrase {PW3[6]} -c notes.txt", PW3[6]),
    ("password_argument", "command", f"ssh-keygen -t ed25519 -N '{PW3[7]}' -f deploy/id", PW3[7]),
    ("password_argument", "command", f"redis-cli -h cache AUTH {PW3[8]}", PW3[8]),
    ("password_argument", "command", f"curl -ubob:{PW3[9]} https://ci.acme.io/api", PW3[9]),
    ("password_argument", "stdout", f"+ echo {PW3[10]} | sudo -S apt-get update", PW3[10]),
]
