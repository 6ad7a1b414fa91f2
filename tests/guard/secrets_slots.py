"""Issue #25's classes: secrets by their command-line slot, and public values that must stay.

SLOTS: (kind, position, line as it appears, the secret that must vanish), placed where sessions
hold them: commands, errors, typed prompts, todos, tool inputs (argument lists, JSON strings),
heredocs a `cat` prints, the agent's prose. The programs are many on purpose: the rules name
slots, not programs, and a program kind's short options are data.
PUBLIC: (class, line) public values that must come out byte for byte: public keys, addresses,
fingerprints, client ids, resource names, integrity hashes, numbers inside test names,
hindsight's own evidence paths, and commands whose slots hold no secret. Values are generated
(guard/fakes.py) or published test vectors (EIP-55, BIP-173); none is a real credential.
"""

from __future__ import annotations

from guard.fakes import ALNUM, B64, BECH32, DIGITS, HEX, LOWER_ALNUM, Fakes

F = Fakes(25)
P = [F.word_password() for _ in range(200)]
_n = iter(range(200))


def pw() -> str:
    return P[next(_n)]


def _cases() -> list[tuple[str, str, str, str]]:
    out: list[tuple[str, str, str, str]] = []

    def add(kind: str, position: str, template: str) -> None:
        secret = pw()
        out.append((kind, position, template.format(s=secret), secret))

    # 1. An option whose name says secret, whatever the program.
    add("opt_password", "command", "./bin/seed --admin-password {s} --env staging")
    add("opt_password", "tool_input", "deployctl push --db-password={s} api")
    add("opt_password", "todo", "Rerun import with --Password {s} once the VPN is up")
    add("opt_password", "error", "usage error: unexpected --passwd={s} (did you mean --pass?)")
    add("opt_intl", "command", "./herramienta --contraseña {s} --usuario admin")
    add("opt_intl", "command", "tool --contrasena={s}")
    add("opt_intl", "prompt", "lance le script avec --mot-de-passe {s} stp")
    add("opt_intl", "command", "outil --mdp {s} --serveur prod")
    add("opt_intl", "command", "ferramenta --senha={s} --host db")
    add("opt_intl", "command", "werkzeug --passwort {s}")
    add("opt_intl", "command", "ツール --パスワード {s}")
    add(
        "opt_single_dash",
        "command",
        "keytool -importkeystore -srcstorepass {s} -destkeystore a.p12",
    )
    add(
        "opt_single_dash",
        "command",
        "influx -username admin -password {s} -execute 'SHOW DATABASES'",
    )
    add("opt_single_dash", "stderr", "flag provided but not defined: -dbpassword {s}")
    add("opt_java_prop", "command", "java -Djavax.net.ssl.keyStorePassword={s} -jar app.jar")
    add("opt_java_prop", "command", "mvn deploy -Drepo.password={s}")
    add("opt_windows", "command", "wmic /node:srv01 /user:admin /password:{s} os get caption")
    add("opt_windows", "command", "cmdkey /add:fileserver /user:CORP\\bob /pass:{s}")
    add("opt_auth", "command", "ncat --proxy-auth bob:{s} proxy.internal 8080")
    add("opt_auth", "command", "etcdctl --user root:{s} get /config")
    add("opt_token", "command", "influx bucket list --token {s}")
    add("opt_token", "todo", "Retry the upload with --access-token={s}")
    add("opt_token", "command", "curl --oauth2-bearer {s} https://api.internal/v1/me")
    add("opt_secret", "command", "./cli --client-secret {s} --client-id web")
    add("opt_secret", "command", "app --hmac-secret={s}")
    add("opt_credential", "command", "uploader --credentials {s}")
    add("opt_credential", "command", "uploader --creds={s}")
    add("opt_passphrase", "command", "restic backup --passphrase {s} /data")
    add(
        "opt_json_args",
        "tool_input",
        'subprocess.run(["pg_restore", "--password", "{s}", "db.dump"])',
    )
    add("opt_json_args", "write", '{{"args": ["--api-token", "{s}", "--verbose"]}}')
    add("opt_json_args", "write", 'exec.Command("vaultctl", "-password", "{s}")')
    add("opt_apikey", "command", "bq query --apikey {s} 'select 1'")
    add("opt_apikey", "command", "./notify --api-key {s} --channel ops")
    # 2. Short options that take a program kind's password.
    add("short_mysql_glued", "command", "mysqldump -h db -uroot -p{s} shop > shop.sql")
    add("short_mysql_glued", "error", "mariadb -u app -p{s} -e 'select 1': ERROR 2002 (HY000)")
    add("short_mysql_glued", "command", "mysqlpump -u admin -p{s} --all-databases")
    add("short_redis", "command", "valkey-cli -h cache -a {s} INFO")
    add("short_redis", "command", "keydb-cli -a {s} --no-auth-warning ping")
    add("short_redis", "todo", "check memory with redis-benchmark -a {s} -q")
    add("short_mongo", "command", "mongodump --uri mongodb://db -u backup -p {s} --out /bk")
    add("short_mongo", "command", "mongosh mongodb://db:27017 -u admin -p{s}")
    add("short_mongo", "command", "mongorestore -u admin -p {s} dump/")
    add("short_mosquitto", "command", "mosquitto_pub -h broker -u sensor -P {s} -t temp -m 21")
    add("short_mosquitto", "command", "mosquitto_sub -h broker -u sensor -P{s} -t '#'")
    add("short_sqlserver", "command", "sqlcmd -S tcp:db,1433 -U sa -P {s} -Q 'SELECT 1'")
    add("short_sqlserver", "command", "bcp dbo.orders out o.dat -S db -U sa -P{s} -c")
    add("short_rabbitmqadmin", "command", "rabbitmqadmin -H mq -u admin -p {s} list queues")
    add("short_cassandra", "command", "cqlsh db1 -u cassandra -p {s} -e 'DESCRIBE KEYSPACES'")
    add("short_neo4j", "command", "cypher-shell -a bolt://graph:7687 -u neo4j -p {s}")
    add(
        "short_couchbase", "command", "couchbase-cli bucket-list -c cb:8091 -u Administrator -p {s}"
    )
    add("short_ipmi", "command", "ipmitool -I lanplus -H 10.0.0.5 -U admin -P {s} power status")
    add("short_vertica", "command", "vsql -h vdb -U dbadmin -w {s} -c 'select 1'")
    add("short_sshpass", "command", "sshpass -p {s} rsync -a build/ deploy@web:/srv")
    add("short_archive", "command", "unrar x -p{s} backup.rar")
    add("short_archive", "command", "rar a -p{s} secrets.rar notes/")
    add("short_rdp", "command", "xfreerdp /v:win01 /u:Administrator /p:{s} /cert:ignore")
    add("short_smb", "command", "smbmap -H 10.0.0.9 -u svc -p {s}")
    add("short_twine", "command", "twine upload -u __token__ -p {s} dist/*")
    add("short_hana", "command", "hdbsql -n hana:30015 -u SYSTEM -p {s} 'select 1 from dummy'")
    # 3. A positional password where the program's kind takes one.
    add("positional_db2", "command", "db2 connect to SAMPLE user db2inst1 using {s}")
    add("positional_minio", "command", "mc alias set prod https://s3.internal AKIMINIO01 {s}")
    add("positional_minio", "command", "mc config host add old http://minio:9000 admin {s}")
    add("positional_neo4j", "command", "neo4j-admin dbms set-initial-password {s}")
    add("positional_rabbitmq", "command", "rabbitmqctl add_user deployer {s}")
    add("positional_wifi", "command", "nmcli device wifi connect OfficeNet password {s}")
    add("positional_wifi", "command", "wpa_passphrase OfficeNet {s} > /etc/wpa.conf")
    add("positional_mosquitto", "command", "mosquitto_passwd -b /etc/mosquitto/passwd sensor {s}")
    add("positional_hash", "command", "openssl passwd -6 {s}")
    add("positional_keychain", "command", "security add-generic-password -a ci -s npm -w {s}")
    add("positional_odbc", "command", "isql PRODDSN sa {s}")
    add("positional_pdf", "command", "pdftk locked.pdf input_pw {s} output open.pdf")
    # 4. A password read from stdin, and what fed it.
    add(
        "stdin_password_stdin",
        "command",
        "echo {s} | helm registry login ghcr.io -u bot --password-stdin",
    )
    add(
        "stdin_password_stdin",
        "command",
        "printf '%s' '{s}' | oras login -u bot --password-stdin r.io",
    )
    add("stdin_password_stdin", "command", "skopeo login quay.io -u bot --password-stdin <<< {s}")
    add(
        "stdin_passphrase_fd", "command", "echo '{s}' | gpg --batch --passphrase-fd 0 -d backup.gpg"
    )
    add(
        "stdin_passphrase_fd",
        "command",
        'gpg --batch --yes --passphrase-fd 0 -c notes.txt <<< "{s}"',
    )
    add("stdin_program", "command", "echo {s} | kinit svc-build@CORP.EXAMPLE.COM")
    add("stdin_program", "command", "echo -n {s} | cryptsetup luksOpen /dev/sdb1 vault")
    add("stdin_store", "command", "printf {s} | docker secret create db_password -")
    add("stdin_store", "command", "echo -n '{s}' | wrangler secret put STRIPE_KEY")
    add("stdin_store", "command", "echo {s} | vercel env add DB_PASS preview")
    add("stdin_store", "command", "echo -n {s} | gcloud secrets versions add db-pass --data-file=-")
    add("stdin_store", "command", "echo {s} | gh secret set DEPLOY_KEY --repo acme/api")
    add("stdin_heredoc", "cat", "kinit admin@CORP <<EOF\n{s}\nEOF")
    add(
        "stdin_heredoc",
        "command",
        "docker login -u ci --password-stdin registry.io <<'END'\n{s}\nEND",
    )
    # 5. The value argument of a subcommand that stores a secret.
    add(
        "store_ssm",
        "command",
        "aws ssm put-parameter --name /prod/db/pass --type SecureString --value {s}",
    )
    add(
        "store_ssm",
        "error",
        "aws ssm put-parameter --name /x --value '{s}' --overwrite: AccessDenied",
    )
    add("store_gh_secret", "command", "gh secret set NPM_TOKEN -b{s}")
    add("store_gh_secret", "command", "gh secret set SENTRY_DSN --body '{s}' --env prod")
    add("store_kubectl", "command", "kubectl create secret generic api --from-literal=DB_CONN={s}")
    add(
        "store_kubectl",
        "command",
        "kubectl -n prod create secret generic app --from-literal=user=app --from-literal=pw={s}",
    )
    add("store_vault", "command", "vault kv put secret/api db={s} user=api")
    add("store_vault", "command", "vault kv patch kv/app stripe={s}")
    add("store_heroku", "command", "heroku config:set MAILGUN_API={s} -a shop")
    add("store_heroku", "command", "dokku config:set shop SIGNING={s}")
    add("store_fly", "command", "fly secrets set DATABASE={s} -a api")
    add("store_fly", "command", "flyctl secrets set REDIS={s} SMTP={s}")
    add("store_doppler", "command", "doppler secrets set STRIPE={s}")
    add("store_supabase", "command", "supabase secrets set OPENAI={s}")
    add(
        "store_azure",
        "command",
        "az keyvault secret set --vault-name kv-prod --name db --value {s}",
    )
    add("store_firebase", "command", "firebase functions:config:set stripe.key={s}")
    add("store_railway", "command", "railway variables set DB={s}")
    add("store_glab", "command", "glab variable set DEPLOY --value {s} --masked")
    add("store_netlify", "command", "netlify env:set API {s}")
    add("store_eas", "command", "eas secret:create --scope project --name API --value {s}")
    add("store_1password", "command", "op item create --category=login --title db password={s}")
    add("store_pulumi", "command", "pulumi config set --secret dbPass {s}")
    # 6. The line after a label.
    add("label_next_line", "stdout", "Created user deploy.\nPassword:\n{s}\nStore it now.")
    add("label_next_line", "stdout", "Your new API key is:\n  {s}\n")
    add("label_next_line", "cat", "# staging\nadmin password =\n{s}\n")
    add("label_next_line", "prompt", "the token:\n{s}")
    add("label_next_line", "stderr", "Generated secret key:\n{s}")
    add("label_intl", "stdout", "Contraseña:\n{s}")
    add("label_intl", "stdout", "Passwort:\n{s}")
    add("label_intl", "stdout", "パスワード:\n{s}")
    # The same slots in more of the places sessions hold them.
    add("opt_password", "assistant", "I'll retry with `--password {s}` as you said.")
    add("short_redis", "assistant", "Connecting with `redis-cli -h cache -a {s}` now.")
    add("store_gh_secret", "prompt", "run gh secret set NPM_TOKEN --body {s} for me")
    add("stdin_password_stdin", "todo", "Log in: echo {s} | docker login -u me --password-stdin")
    add("store_kubectl", "write", "kubectl create secret generic web --from-literal=SESSION={s}\n")
    add("opt_password", "write", 'args = ["--db-pass", "{s}"]\n')
    add("positional_rabbitmq", "todo", "rabbitmqctl change_password guest {s}")
    add("short_mongo", "tool_input", '{{"command": "mongosh -u root -p {s} admin"}}')
    add("opt_token", "error", "Error: invalid value for --auth-token {s}: expired")
    add("stdin_passphrase_fd", "prompt", "decrypt with: echo {s} | gpg --passphrase-fd 0 -d x.gpg")
    return out


SLOTS: list[tuple[str, str, str, str]] = _cases()

_B32 = BECH32.lower()
EIP55 = [  # EIP-55's own test vectors: checksummed Ethereum addresses
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
]
BIP173 = [
    "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
]


def _uuid7() -> str:
    h = F.s(HEX, 32)
    return f"0199{h[:4]}-{h[4:8]}-7{h[9:12]}-8{h[13:16]}-{h[16:28]}"


def _pgp_public() -> str:
    body = "\n".join(F.s(B64, 64) for _ in range(4))
    return (
        f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBG{F.s(B64, 58)}\n{body}\n"
        f"={F.s(B64, 4)}\n-----END PGP PUBLIC KEY BLOCK-----"
    )


def _public() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    ed = "AAAAC3NzaC1lZDI1NTE5AAAAI"
    for who in ("bob@laptop", "ci@runner", "deploy"):
        out.append(("public_key", f"ssh-ed25519 {ed}{F.s(B64, 43)} {who}"))
    out.append(("public_key", f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{F.s(B64, 500)} a@b"))
    out.append(
        (
            "public_key",
            f"ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB{F.s(B64, 86)}= db",
        )
    )
    out.append(("public_key", f"authorized_keys: ssh-ed25519 {ed}{F.s(B64, 43)}"))
    for _ in range(3):
        out.append(("public_key", "age1" + F.s(_B32, 58)))
    out.append(("public_key", f"creation_rules:\n  - age: age1{F.s(_B32, 58)}"))
    out.append(("public_key", f"age -r age1{F.s(_B32, 58)} -o secrets.age secrets.txt"))
    out.append(("public_key", "npub1" + F.s(_B32, 58)))
    out.append(("public_key", f"my nostr: npub1{F.s(_B32, 58)}"))
    out.append(("public_key", _pgp_public()))
    out.append(("public_key", f"[Peer]\nPublicKey = {F.s(B64, 42)}A="))
    out.append(("public_key", f"publicKey: {F.s(B64, 42)}E="))
    out.append(("public_key", f'"public_key": "{F.s(B64, 42)}Q="'))
    out.append(("public_key", f"did:key:z6Mk{F.s(ALNUM, 44)}"))
    for a in EIP55:
        out.append(("address", a))
    out.append(("address", f"send 0.5 ETH to {EIP55[0]} on mainnet"))
    out.append(("address", f'"recipient": "{EIP55[1]}"'))
    out.append(("address", f"wallet address: {EIP55[2]}"))
    out.extend(("address", a) for a in BIP173)
    out.append(("address", f"withdraw to {BIP173[0]}"))
    out.append(("address", "bc1q" + F.s(_B32, 38)))
    out.append(("address", "cosmos1" + F.s(_B32, 38)))
    out.append(("address", "osmo1" + F.s(_B32, 38)))
    out.append(("fingerprint", f"SHA256:{F.s(B64, 43)}"))
    out.append(("fingerprint", f"256 SHA256:{F.s(B64, 43)} bob@laptop (ED25519)"))
    out.append(("fingerprint", f"The key fingerprint is SHA256:{F.s(B64, 43)} deploy@ci"))
    out.append(("fingerprint", f"ECDSA key fingerprint is SHA256:{F.s(B64, 43)}."))
    out.append(("fingerprint", ":".join(F.s(HEX, 2) for _ in range(16))))
    out.append(("fingerprint", "MD5:" + ":".join(F.s(HEX, 2) for _ in range(16))))
    out.append(("fingerprint", "Fingerprint: " + ":".join(F.s(HEX, 2).upper() for _ in range(20))))
    out.append(
        ("fingerprint", "Key fingerprint = " + " ".join(F.s(HEX, 4).upper() for _ in range(10)))
    )
    out.append(("fingerprint", f"gpg: key {F.s(HEX, 16).upper()}: public key imported"))
    for _ in range(3):
        cid = f"{F.s(DIGITS, 12)}-{F.s(LOWER_ALNUM, 32)}.apps.googleusercontent.com"
        out.append(("client_id", cid))
    out.append(
        (
            "client_id",
            f"GOOGLE_CLIENT_ID={F.s(DIGITS, 12)}-{F.s(LOWER_ALNUM, 32)}.apps.googleusercontent.com",
        )
    )
    out.append(("client_id", f"client_id: {F.s(ALNUM, 22)}"))
    out.append(("client_id", f'"clientId": "{F.s(ALNUM, 26)}"'))
    out.append(("client_id", f"OAUTH_CLIENT_ID={F.s(ALNUM, 32)}"))
    out.append(("client_id", f"GITHUB_CLIENT_ID=Iv1.{F.s(HEX, 16)}"))
    out.append(("resource_name", "arn:aws:iam::123456789012:role/deploy-role"))
    out.append(("resource_name", f"arn:aws:s3:::assets-{F.s(LOWER_ALNUM, 20)}"))
    out.append(("resource_name", "arn:aws:lambda:us-east-1:123456789012:function:ProcessOrders"))
    out.append(
        ("resource_name", "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf")
    )
    out.append(("resource_name", "arn:aws:kms:eu-west-1:123456789012:key/" + F.uuid()))
    out.append(("resource_name", "projects/acme-prod-123/secrets/db-password/versions/3"))
    out.append(("resource_name", "projects/acme/locations/us-central1/keyRings/kr/cryptoKeys/k1"))
    out.append(
        ("resource_name", f"//iam.googleapis.com/projects/p/serviceAccounts/{F.s(DIGITS, 21)}")
    )
    out.append(
        (
            "resource_name",
            f"/subscriptions/{F.uuid()}/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/kv",
        )
    )
    out.append(("integrity", f'"integrity": "sha512-{F.s(B64, 86)}=="'))
    out.append(("integrity", f"  resolution: {{integrity: sha512-{F.s(B64, 86)}==}}"))
    out.append(("integrity", f"sha384-{F.s(B64, 64)}"))
    out.append(("integrity", f"nginx@sha256:{F.s(HEX, 64)}"))
    out.append(("integrity", f"ghcr.io/acme/api@sha256:{F.s(HEX, 64)}"))
    out.append(("integrity", f"Digest: sha256:{F.s(HEX, 64)}"))
    out.append(("integrity", f"github.com/pkg/errors v0.9.1 h1:{F.s(B64, 43)}="))
    out.append(("integrity", f"ed25519:{F.s(B64, 43)}="))
    out.append(("test_name", f"test_parse_{F.s(DIGITS, 12)}_returns_empty"))
    out.append(("test_name", f"tests/test_api.py::test_order_{F.s(DIGITS, 11)}_refund PASSED"))
    out.append(("test_name", f"it('handles order {F.s(DIGITS, 11)} and {F.s(DIGITS, 10)}')"))
    out.append(("test_name", f"FAILED tests/test_ids.py::test_snowflake[{F.s(DIGITS, 19)}]"))
    for day in ("01", "15"):
        u = _uuid7()
        name = f"rollout-2025-09-{day}T10-00-00-{u}.jsonl"
        out.append(("evidence_path", f"/home/me/.codex/sessions/2025/09/{day}/{name}"))
        out.append(("evidence_path", f"{name}:12"))
        out.append(("evidence_path", f"~/.codex/sessions/2025/09/{day}/{name}:3"))
    # Slots that hold no secret: a flag with no value, a variable, a port, a file, a switch.
    out.extend(("slot_lookalike", line) for line in SLOT_LOOKS)
    return out


SLOT_LOOKS = [
    "mysql -u root -p app",
    "mongosh --port 27017 -u admin -p",
    "redis-cli -p 6379 ping",
    "mosquitto_pub -p 1883 -t a -m hi",
    "rabbitmqadmin -P 15672 list queues",
    "sqlcmd -S db -U sa -P $SA_PASSWORD",
    "ipmitool -I lanplus -H 10.0.0.5 -U admin -P $IPMI_PW power status",
    "gh secret set NPM_TOKEN < token.txt",
    'gh secret set NPM_TOKEN --body "$NPM_TOKEN"',
    "kubectl create secret generic db --from-file=./password.txt",
    "kubectl create secret generic db --from-literal=password=$DB_PASSWORD",
    "vault kv put secret/app @data.json",
    "heroku config:set NODE_ENV=production WEB_CONCURRENCY=2 -a app",
    "aws ssm put-parameter --name /x --value file://v.json",
    "echo $TOKEN | docker login -u me --password-stdin ghcr.io",
    "git hash-object --stdin <<< hello",
    "echo abc | sort -S 1G",
    "app --password-file /run/secrets/db",
    "app --token-type bearer",
    "app --auth basic",
    "app --key-name deploy-2024",
    "app --key ~/.ssh/id_rsa",
    "app --key server.pem",
    "openssl enc -d -aes-256-cbc -in a.enc -out a -pass env:ENC_PASS",
    "app --secret-name prod/db",
    "gpg --keyserver keys.openpgp.org --recv-keys 0x1234ABCD",
    "Password:\n********",
    "Enter password:\nsudo: 3 incorrect password attempts",
    "The token:\nexpired",
    "password reset:\nsee docs/auth.md",
    "docker run -p 8080:80 nginx",
    "psql -p 5432 -h db",
    "mc alias set local http://localhost:9000 $MINIO_USER $MINIO_PASS",
    "openssl passwd -6 -stdin",
    "app --max-tokens 4096",
    "app --key-size 4096",
    "sort --key=2,2 -t, data.csv",
    "echo done | passwd-check",
    "app --tokenizer bert",
    "ansible-playbook --ask-vault-pass site.yml",
]

PUBLIC: list[tuple[str, str]] = _public()
