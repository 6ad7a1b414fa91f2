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

# Fourth red-team pass (classes g of #11): credentials in code, configuration commands and
# interactive scripts, cookies, hex keys after a flag, password labels in other languages.
# Drawn after the earlier passes' values. "assistant": the agent's prose; "write": a file the
# agent wrote (Write, then Edit).
PW4 = [F.word_password() for _ in range(24)]
AN4 = [F.s(ALNUM, n) for n in (12, 14, 16, 12, 13, 15, 12, 14, 16, 12, 18, 20)]
HEX4 = [F.s(HEX, n) for n in (32, 64, 48, 32)]
AWS4 = [F.s(B64, 40) for _ in range(3)]
SESSION4 = [F.s(LOWER_ALNUM, 26), F.s(ALNUM, 32), F.s(HEX, 32).upper(), F.s(URLSAFE, 40)]
OBSCURED = F.s(URLSAFE, 30)
ADO_PAT = F.s("abcdefghijklmnopqrstuvwxyz234567", 52)
SAS_SIG = F.s(ALNUM, 30) + "%2B" + F.s(ALNUM, 10) + "%3D"
OKTA = "00" + F.s(URLSAFE, 40)
SPLUNK = F.uuid()
GODADDY = (F.s(ALNUM, 12), F.s(ALNUM, 22))
FULLWIDTH_ASCII = F.s(ALNUM, 12)
FULLWIDTH = "".join(chr(ord(c) + 0xFEE0) for c in FULLWIDTH_ASCII)
INTL4 = [F.s(LOWER, 4).capitalize() + F.s(DIGITS, 4) + "!" for _ in range(16)]


def _fw(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


REDTEAM += [
    # Credentials in code.
    (
        "code_credentials",
        "write",
        f'auth = HTTPBasicAuth("deploy", "{PW4[0]}")\nr = requests.get(URL, auth=auth)',
        PW4[0],
    ),
    (
        "code_credentials",
        "tool_input",
        f'resp = requests.get(f"{{BASE}}/v1/items", auth=("ci-bot", "{PW4[1]}"), timeout=10)',
        PW4[1],
    ),
    (
        "code_credentials",
        "write",
        f'var creds = new NetworkCredential("svc-report", "{PW4[2]}", "ACME");',
        PW4[2],
    ),
    (
        "code_credentials",
        "assistant",
        f'I\'ll log in with the mail account first:\n\n```python\nsmtp.login("alerts@acme.io", "{PW4[3]}")\n```',
        PW4[3],
    ),
    (
        "code_credentials",
        "write",
        f'String basic = Credentials.basic("jenkins", "{PW4[4]}");',
        PW4[4],
    ),
    (
        "code_credentials",
        "stdout",
        f"  File \"sync.py\", line 12\n    session.auth = HTTPDigestAuth('ops', '{PW4[5]}')",
        PW4[5],
    ),
    (
        "jdbc_url",
        "cat",
        f"spring.datasource.url=jdbc:postgresql://db.acme.io:5432/app?user=app&password={AN4[0]}",
        AN4[0],
    ),
    (
        "jdbc_url",
        "write",
        f'String url = "jdbc:sqlserver://db.acme.io:1433;databaseName=shop;user=sa;password={AN4[1]};";',
        AN4[1],
    ),
    ("jdbc_url", "command", f"sqlplus -s scott/{AN4[2]}@db.acme.io:1521/ORCL @report.sql", AN4[2]),
    (
        "jdbc_url",
        "error",
        f"java.sql.SQLException: ORA-01017: invalid username/password; url=jdbc:oracle:thin:scott/{AN4[3]}@db:1521:ORCL",
        AN4[3],
    ),
    (
        "go_dsn",
        "write",
        f'db, err := sql.Open("mysql", "app:{AN4[4]}@tcp(db.acme.io:3306)/shop?parseTime=true")',
        AN4[4],
    ),
    (
        "go_dsn",
        "error",
        f"dial failed: DSN app:{AN4[5]}@unix(/var/run/mysqld/mysqld.sock)/shop",
        AN4[5],
    ),
    ("go_dsn", "cat", f'MYSQL_DSN="root:{AN4[6]}@tcp(127.0.0.1:3306)/test"', AN4[6]),
    (
        "odbc_connection",
        "write",
        f'conn = pyodbc.connect("Driver={{ODBC Driver 18 for SQL Server}};Server=db;Uid=sa;Pwd={PW4[6]};")',
        PW4[6],
    ),
    (
        "odbc_connection",
        "cat",
        f'"DefaultConnection": "Server=db;Database=app;User Id=sa;Password={PW4[7]};TrustServerCertificate=true"',
        PW4[7],
    ),
    (
        "odbc_connection",
        "stdout",
        f"DSN=warehouse;UID=etl;PWD={{{AN4[7]}}};",
        AN4[7],
    ),
    (
        "url_query_password",
        "command",
        f"curl 'https://nas.acme.io/login.cgi?user=admin&pw={AN4[8]}'",
        AN4[8],
    ),
    ("url_query_password", "error", f"GET /api/auth?usr=bob&pwd={AN4[9]} HTTP/1.1 401", AN4[9]),
    (
        "url_query_password",
        "stdout",
        f"redirect: https://cam.local/snapshot.jpg?user=admin&passwd={AN4[10]}",
        AN4[10],
    ),
    (
        "url_query_password",
        "prompt",
        f"the camera url is http://10.0.0.9/video?pass={AN4[11]}",
        AN4[11],
    ),
    # Configuration commands and files.
    ("config_command", "command", f"aws configure set aws_secret_access_key {AWS4[0]}", AWS4[0]),
    (
        "config_command",
        "stdout",
        f"+ aws configure set aws_secret_access_key {AWS4[1]} --profile prod",
        AWS4[1],
    ),
    (
        "config_command",
        "command",
        f"yarn config set npmAuthToken {AN4[0]}{AN4[3]}",
        AN4[0] + AN4[3],
    ),
    ("config_command", "command", f'dotnet user-secrets set "Stripe:SecretKey" "{PW4[8]}"', PW4[8]),
    ("config_command", "command", f"poetry config http-basic.acme ci-bot {PW4[9]}", PW4[9]),
    ("config_command", "command", f"gh secret set DEPLOY_KEY --body '{PW4[10]}'", PW4[10]),
    (
        "yaml_block_scalar",
        "cat",
        f"db:\n  user: app\n  password: |\n    {PW4[11]}\n  host: db\n",
        PW4[11],
    ),
    (
        "yaml_block_scalar",
        "write",
        f"stringData:\n  client_secret: >-\n    {AWS4[2]}\n",
        AWS4[2],
    ),
    ("yaml_block_scalar", "stdout", f"- name: smtp\n  token: |+\n    {PW4[12]}\n\n", PW4[12]),
    (
        "rclone",
        "command",
        f"rclone config create nas sftp host nas.local user bob pass {PW4[13]}",
        PW4[13],
    ),
    ("rclone", "command", f"rclone obscure '{PW4[14]}'", PW4[14]),
    (
        "rclone",
        "cat",
        f"[nas]\ntype = sftp\nhost = nas.local\nuser = bob\npass = {OBSCURED}\n",
        OBSCURED,
    ),
    ("azure_devops_pat", "cat", f"AZURE_DEVOPS_EXT_PAT={ADO_PAT}", ADO_PAT),
    ("azure_devops_pat", "command", f"export ADO_PAT={ADO_PAT} && az devops project list", ADO_PAT),
    (
        "azure_sas",
        "command",
        f"azcopy copy ./dist 'https://acme.blob.core.windows.net/web?sv=2022-11-02&ss=b&srt=co&sp=rwl&se=2026-12-31&sig={SAS_SIG}' --recursive",
        SAS_SIG,
    ),
    # Passwords as program arguments and in scripts.
    (
        "ldap_password",
        "command",
        f"ldapsearch -x -H ldap://dc1 -D cn=admin,dc=acme -w {PW4[15]} -b dc=acme",
        PW4[15],
    ),
    (
        "ldap_password",
        "command",
        f"ldapmodify -x -D cn=admin,dc=acme -w '{PW4[16]}' -f user.ldif",
        PW4[16],
    ),
    (
        "ldap_password",
        "command",
        f"ldappasswd -x -D cn=admin,dc=acme -W -s {PW4[17]} uid=bob,dc=acme",
        PW4[17],
    ),
    (
        "password_stdin",
        "command",
        f"printf '%s' '{PW4[18]}' | podman login -u bob --password-stdin quay.io",
        PW4[18],
    ),
    (
        "password_stdin",
        "command",
        f"echo -n {AN4[1]}{AN4[2]} | helm registry login reg.acme.io -u ci --password-stdin",
        AN4[1] + AN4[2],
    ),
    (
        "password_stdin",
        "command",
        f"docker login -u ci --password-stdin reg.acme.io <<< '{PW4[19]}'",
        PW4[19],
    ),
    (
        "expect_script",
        "write",
        f'#!/usr/bin/expect -f\nspawn ssh admin@switch1\nexpect "*assword:"\nsend "{PW4[20]}\\r"\ninteract',
        PW4[20],
    ),
    (
        "expect_script",
        "command",
        f'expect -c \'spawn sftp bob@nas; expect "Password:" {{ send "{AN4[4]}\\r" }}; interact\'',
        AN4[4],
    ),
    (
        "openssl_password",
        "command",
        f"openssl enc -aes-256-cbc -salt -in db.sql -out db.enc -k {PW4[21]}",
        PW4[21],
    ),
    (
        "openssl_password",
        "command",
        f"openssl enc -d -aes-256-cbc -in db.enc -pass pass:{AN4[5]}{AN4[6]}",
        AN4[5] + AN4[6],
    ),
    (
        "openssl_password",
        "command",
        f"openssl enc -aes-128-cbc -K {HEX4[0]} -iv 00000000000000000000000000000000 -in a",
        HEX4[0],
    ),
    (
        "powershell_secure_string",
        "command",
        f'$pw = ConvertTo-SecureString "{PW4[22]}" -AsPlainText -Force',
        PW4[22],
    ),
    (
        "powershell_secure_string",
        "write",
        f"$cred = New-Object PSCredential('svc', (ConvertTo-SecureString -AsPlainText -Force -String '{PW4[23]}'))",
        PW4[23],
    ),
    ("windows_net_user", "command", f"net user deploy {AN4[7]}{AN4[0]} /add", AN4[7] + AN4[0]),
    # Cookies, authorization schemes, keys after flags.
    (
        "cookie_header",
        "command",
        f"curl -H 'Cookie: sessionid={SESSION4[0]}; csrftoken=x' https://app.acme.io/api",
        SESSION4[0],
    ),
    (
        "cookie_header",
        "stdout",
        f"< HTTP/2 200\n< set-cookie: _app_session={SESSION4[1]}; path=/; secure; HttpOnly",
        SESSION4[1],
    ),
    (
        "cookie_header",
        "command",
        f"curl -b 'JSESSIONID={SESSION4[2]}' https://intranet.acme.io/admin",
        SESSION4[2],
    ),
    (
        "cookie_header",
        "error",
        f"request headers: {{'Cookie': 'remember_token={SESSION4[3]}'}}",
        SESSION4[3],
    ),
    (
        "auth_scheme",
        "command",
        f"curl -H 'Authorization: SSWS {OKTA}' https://acme.okta.com/api/v1/users",
        OKTA,
    ),
    (
        "auth_scheme",
        "command",
        f'curl -H "Authorization: Splunk {SPLUNK}" https://hec.acme.io:8088/services/collector',
        SPLUNK,
    ),
    ("auth_scheme", "stdout", f"Authorization: sso-key {GODADDY[0]}:{GODADDY[1]}", GODADDY[1]),
    ("hex_key_flag", "command", f"./backup --encryption-key {HEX4[1]} --out /mnt/b", HEX4[1]),
    ("hex_key_flag", "command", f"./bin/decrypt --key {HEX4[2]} secrets.enc", HEX4[2]),
    ("hex_key_flag", "command", f"restic-like init --master-key={HEX4[3]}", HEX4[3]),
    ("hex_key_flag", "tool_input", f"./cli --api-key {HEX4[0]} status", HEX4[0]),
    # Password labels in other languages, and fullwidth letters.
    ("intl_password", "prompt", f"パスワード：{INTL4[0]}", INTL4[0]),
    ("intl_password", "assistant", f"비밀번호: {INTL4[1]} 로 로그인했습니다", INTL4[1]),
    ("intl_password", "prompt", f"数据库密码：{INTL4[2]}", INTL4[2]),
    ("intl_password", "stdout", f"密碼={INTL4[3]}", INTL4[3]),
    ("intl_password", "prompt", f"la password è {INTL4[4]}", INTL4[4]),
    ("intl_password", "prompt", f"parola d'ordine: {INTL4[5]}", INTL4[5]),
    ("intl_password", "prompt", f"hasło: {INTL4[6]}", INTL4[6]),
    ("intl_password", "assistant", f"Пароль: {INTL4[7]}", INTL4[7]),
    ("intl_password", "prompt", f"Kennwort={INTL4[8]}", INTL4[8]),
    ("intl_password", "prompt", f"contraseña: {INTL4[9]}", INTL4[9]),
    ("intl_password", "prompt", f"mot de passe : {INTL4[10]}", INTL4[10]),
    ("intl_password", "prompt", f"lösenord: {INTL4[11]}", INTL4[11]),
    ("intl_password", "prompt", f"jelszó: {INTL4[12]}", INTL4[12]),
    ("intl_password", "stdout", f"mật khẩu: {INTL4[13]}", INTL4[13]),
    ("fullwidth", "prompt", f"ＰＡＳＳＷＯＲＤ＝{FULLWIDTH}", FULLWIDTH),
    ("fullwidth", "prompt", f"ＰＡＳＳＷＯＲＤ＝{FULLWIDTH}", FULLWIDTH_ASCII),
    ("fullwidth", "assistant", f"パスワード：{_fw(INTL4[14])}", _fw(INTL4[14])),
    ("fullwidth", "stdout", f"{_fw('api_key=')}{_fw(INTL4[15])}", INTL4[15]),
    # mysql -p with a space: a password when a database follows, or its characters say so.
    ("mysql_spaced_p", "command", f"mysql -u root -p {AN4[8]} shop", AN4[8]),
    ("mysql_spaced_p", "command", f"mysql -h db -u root -p '{PW4[0]}' -e 'show databases'", PW4[0]),
    ("mysql_spaced_p", "command", f"mariadb -u app -p {PW4[1]} app < seed.sql", PW4[1]),
]
