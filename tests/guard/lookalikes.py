"""Look-alikes: text that resembles a secret and must come out of redaction unchanged, by class.

LOOKS: (class, line). The classes include those the red-team pass saw destroyed (public keys,
certificate lines, integrity hashes, long test names, option names that merely contain "secret" or
"password") and the negative samples of the scanners' rule sets (gitleaks' `fps`, detect-secrets'
false-positive tests). Random parts are generated (guard/fakes.py), deterministic.
"""

from __future__ import annotations

import base64

from guard.fakes import B64, HEX, Fakes

F = Fakes(13)


def _ssh(kind: str, blob_head: str, n: int, who: str) -> str:
    return f"{kind} {blob_head}{F.s(B64, n)} {who}"


def _pem_public(label: str, lines: int) -> str:
    body = "\n".join(F.s(B64, 64) for _ in range(lines))
    return f"-----BEGIN {label}-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{F.s(B64, 20)}\n{body}\nIDAQAB\n-----END {label}-----"


def _integrity(alg: str, n: int) -> str:
    return f"{alg}-{F.s(B64, n)}=="


LOOKS: list[tuple[str, str]] = [
    # Public keys: ssh lines, authorized_keys, known_hosts, PEM PUBLIC KEY blocks.
    ("ssh_public_key", _ssh("ssh-ed25519", "AAAAC3NzaC1lZDI1NTE5AAAAI", 43, "bob@laptop")),
    ("ssh_public_key", _ssh("ssh-ed25519", "AAAAC3NzaC1lZDI1NTE5AAAAI", 43, "deploy@ci")),
    ("ssh_public_key", _ssh("ssh-rsa", "AAAAB3NzaC1yc2EAAAADAQABAAABgQ", 500, "alice@acme.io")),
    ("ssh_public_key", _ssh("ssh-rsa", "AAAAB3NzaC1yc2EAAAADAQABAAABAQ", 340, "")),
    (
        "ssh_public_key",
        _ssh("ecdsa-sha2-nistp256", "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAI", 140, "root@db1"),
    ),
    ("ssh_public_key", "github.com " + _ssh("ssh-ed25519", "AAAAC3NzaC1lZDI1NTE5AAAAI", 43, "")),
    (
        "ssh_public_key",
        'command="/usr/bin/backup" '
        + _ssh("ssh-ed25519", "AAAAC3NzaC1lZDI1NTE5AAAAI", 43, "backup"),
    ),
    (
        "ssh_public_key",
        _ssh("sk-ssh-ed25519@openssh.com", "AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t", 80, "yk"),
    ),
    ("ssh_public_key", "Your public key has been saved in /home/bob/.ssh/id_ed25519.pub"),
    ("ssh_public_key", "SHA256:" + F.s(B64, 43) + " bob@laptop (ED25519)"),
    ("pem_public_key", _pem_public("PUBLIC KEY", 5)),
    ("pem_public_key", _pem_public("RSA PUBLIC KEY", 4)),
    ("pem_public_key", "-----BEGIN PUBLIC KEY-----"),
    ("pem_public_key", "-----BEGIN PGP PUBLIC KEY BLOCK-----"),
    # Certificates and their lines.
    ("certificate", _pem_public("CERTIFICATE", 6)),
    ("certificate", "-----BEGIN CERTIFICATE-----"),
    ("certificate", "subject=CN = api.acme.io, O = Acme Inc, C = US"),
    ("certificate", "issuer=C = US, O = Let's Encrypt, CN = R3"),
    ("certificate", "SHA256 Fingerprint=" + ":".join(F.s(HEX, 2).upper() for _ in range(32))),
    ("certificate", "        Serial Number: " + ":".join(F.s(HEX, 2) for _ in range(16))),
    ("certificate", "    Modulus:\n        00:" + ":".join(F.s(HEX, 2) for _ in range(30))),
    ("certificate", "    Signature Algorithm: sha256WithRSAEncryption"),
    (
        "certificate",
        "            X509v3 Subject Key Identifier: "
        + ":".join(F.s(HEX, 2).upper() for _ in range(20)),
    ),
    (
        "certificate",
        "    certificate-authority-data: "
        + base64.b64encode(_pem_public("CERTIFICATE", 3).encode()).decode(),
    ),
    # Integrity hashes in lock files and pages.
    ("integrity_hash", f'      "integrity": "{_integrity("sha512", 86)}",'),
    ("integrity_hash", f'      "integrity": "{_integrity("sha512", 86)}"'),
    ("integrity_hash", f"  integrity {_integrity('sha512', 86)}"),
    ("integrity_hash", f"    resolution: {{integrity: {_integrity('sha512', 86)}}}"),
    ("integrity_hash", f'"integrity": "sha1-{F.s(B64, 27)}="'),
    ("integrity_hash", f'<script src="/app.js" integrity="sha384-{F.s(B64, 64)}" crossorigin>'),
    ("integrity_hash", f"Content-Security-Policy: script-src 'self' 'sha256-{F.s(B64, 43)}='"),
    ("integrity_hash", f"golang.org/x/oauth2 v0.15.0 h1:{F.s(B64, 43)}="),
    ("integrity_hash", f"google.golang.org/api v0.81.0/go.mod h1:{F.s(B64, 43)}="),
    ("integrity_hash", f'  hash = "sha256-{F.s(B64, 43)}=";'),
    ("integrity_hash", f"    --hash=sha256:{F.s(HEX, 64)} \\"),
    ("integrity_hash", f"{F.s(HEX, 64)}  dist/hindsight-0.4.0.tar.gz"),
    ("integrity_hash", f"SHA512 ({F.s(HEX, 8)}.tar.gz) = {F.s(HEX, 128)}"),
    # Long test names.
    (
        "test_name",
        "tests/test_auth.py::test_password_reset_token_expires_after_24_hours_even_when_unused PASSED",
    ),
    (
        "test_name",
        "FAILED tests/api/test_keys.py::TestApiKeyRotation::test_rotating_the_secret_key_invalidates_old_sessions",
    ),
    (
        "test_name",
        "  ✓ should reject an expired bearer token when the clock skew exceeds 30 seconds (12 ms)",
    ),
    ("test_name", "--- FAIL: TestSecretManagerRotatesCredentialsWithinTheGracePeriod (0.02s)"),
    (
        "test_name",
        "PASSED tests/test_token.py::test_api_key_header_is_required[missing-header-401]",
    ),
    (
        "test_name",
        "def test_private_key_loader_rejects_passphrase_protected_keys_without_a_passphrase():",
    ),
    ("test_name", "it('stores the refresh_token in an httpOnly cookie, never in localStorage')"),
    ("test_name", "test_secret_key_base_is_read_from_the_environment_in_production_mode ... ok"),
    # Option names and settings that merely contain "secret", "password", "token" or "key".
    ("option_name", "docker login --password-stdin registry.acme.io"),
    ("option_name", "pg_dump --password-file ~/.config/pg/password.txt app"),
    ("option_name", "secret_name: db-credentials"),
    ("option_name", "aws secretsmanager get-secret-value --secret-id prod/app/db"),
    ("option_name", "--token-file /var/run/secrets/kubernetes.io/serviceaccount/token"),
    ("option_name", "./run --api-key-env OPENAI_API_KEY"),
    ("option_name", "kubectl get secret db-password -o yaml"),
    ("option_name", "secretName: tls-acme-io"),
    ("option_name", "password_hash_algorithm: argon2id"),
    ("option_name", "token_type: Bearer"),
    ("option_name", "token_url: https://oauth2.googleapis.com/token"),
    ("option_name", "password_min_length: 12"),
    ("option_name", "api_key_header: X-Api-Key"),
    ("option_name", "credentials_file: ~/.aws/credentials"),
    ("option_name", "SSH_AUTH_SOCK=/tmp/ssh-XXXXCQ1u2G/agent.2814"),
    ("option_name", "GIT_ASKPASS=/usr/lib/git-core/git-gui--askpass"),
    ("option_name", "auth_method: oauth2"),
    ("option_name", "token_expiry_seconds: 3600"),
    ("option_name", "secret_key_base: <%= ENV['SECRET_KEY_BASE'] %>"),
    ("option_name", "token: ${{ secrets.GITHUB_TOKEN }}"),
    ("option_name", "NPM_TOKEN: ${{ secrets.NPM_TOKEN }}"),
    ("option_name", "PASSWORD_FILE=/run/secrets/db_password"),
    ("option_name", "key_name: deploy-key-2024"),
    ("option_name", "--key-name prod-signing"),
    ("option_name", "apiKey: process.env.STRIPE_API_KEY,"),
    ("option_name", "vault kv get -field=password secret/app/db"),
    ("option_name", "gh secret set NPM_TOKEN --body -"),
    ("option_name", "passwordless: true"),
    ("option_name", "ssh-keygen -t ed25519 -N '' -f ~/.ssh/id_ed25519"),
    ("option_name", "PRIVATE_KEY_PATH=./keys/dev.pem"),
    ("option_name", "export TOKEN_CACHE_DIR=~/.cache/acme/tokens"),
    ("option_name", "--secret-key-ref=acme-prod/signing"),
    # Prose about passwords and tokens (and the two false redactions of #12).
    ("prose", "hindsight: error: /etc/passwd: no such folder"),
    ("prose", "password: see auth/reset.py"),
    ("prose", "sudo: a password is required"),
    ("prose", 'FATAL:  password authentication failed for user "postgres"'),
    ("prose", "Permission denied (publickey,password)."),
    ("prose", "mysql: [Warning] Using a password on the command line interface can be insecure."),
    ("prose", "Enter passphrase for key '/root/.ssh/id_ed25519':"),
    ("prose", "Password for 'https://bob@github.com':"),
    ("prose", "error: token expired, run `gh auth login` again"),
    ("prose", "The secret is stored in Vault under kv/app, never in the repo."),
    ("prose", "Forgot your password? Reset it at /accounts/password/reset/"),
    ("prose", "401 Unauthorized: invalid api key format"),
    ("prose", "Your token has expired. Please log in again."),
    ("prose", "the key is in the vault: kv/prod/signing"),
    ("prose", "password reset emails go out through the mailer queue"),
    # Git SHAs, UUIDs, ids.
    ("git_sha", f"commit {F.s(HEX, 40)}"),
    ("git_sha", f"HEAD is now at {F.s(HEX, 7)} Merge pull request #42 from acme/fix"),
    ("git_sha", f"Change-Id: I{F.s(HEX, 40)}"),
    ("git_sha", f"GIT_COMMIT={F.s(HEX, 40)}"),
    ("git_sha", f"  rev: {F.s(HEX, 40)}"),
    ("git_sha", f"From {F.s(HEX, 40)} Mon Sep 17 00:00:00 2001"),
    ("uuid", f"request_id={F.uuid()}"),
    ("uuid", f'  "session_id": "{F.uuid()}",'),
    ("uuid", f"trace_id: {F.s(HEX, 32)}"),
    ("uuid", f"x-amzn-RequestId: {F.uuid()}"),
    ("uuid", f"Created container {F.s(HEX, 64)}"),
    ("uuid", f"correlationId={F.uuid()}"),
    # Paths, versions, build artefacts.
    ("path", "/home/bob/.cache/pip/wheels/3f/2a/9c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a291/"),
    ("path", "build/static/js/main.3f2a9c1e.chunk.js"),
    ("path", "_next/static/chunks/pages/_app-3f2a9c1e8b7d6f5a.js"),
    ("path", "src/__pycache__/redact.cpython-311.pyc"),
    ("path", "numpy-1.26.4-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"),
    ("path", "~/.cache/bazel/_bazel_root/8e3f1c2b7a9d4e6f0b5c8a1d3e7f9b2c/execroot/main"),
    ("path", "s3://acme-prod-artifacts-eu-west-1/releases/2024/11/app-v2.3.1.tar.gz"),
    ("path", "arn:aws:iam::123456789012:role/github-actions-deploy"),
    ("path", "gs://acme-ml-datasets/imagenet/train-00042-of-01024.tfrecord"),
    ("path", "/var/lib/docker/overlay2/" + F.s(HEX, 64) + "/merged"),
    ("version", "Successfully installed hindsight-0.4.0 orjson-3.10.12"),
    ("version", "rustc 1.83.0 (90b35a623 2024-11-26)"),
    ("version", "node: v22.11.0, npm: 10.9.0, pnpm: 9.14.2"),
    ("version", "Terraform v1.9.8 on linux_amd64"),
    ("version", "kubectl version: Client Version: v1.31.2 Kustomize Version: v5.4.2"),
    # Base64 of text, and of images.
    ("base64_text", base64.b64encode(b"The deploy failed because the cache was cold.").decode()),
    ("base64_text", "echo " + base64.b64encode(b'{"name": "acme", "version": "2.3.1"}').decode()),
    (
        "base64_text",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    ),
    (
        "base64_text",
        "  content: "
        + base64.b64encode(b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n").decode(),
    ),
    (
        "base64_text",
        "Subject: =?UTF-8?B?"
        + base64.b64encode("Réunion de lancement du projet".encode()).decode()
        + "?=",
    ),
    # Image and container hashes.
    ("image_hash", f"docker.io/library/python@sha256:{F.s(HEX, 64)}"),
    ("image_hash", f"Digest: sha256:{F.s(HEX, 64)}"),
    ("image_hash", f"REPOSITORY TAG IMAGE ID CREATED\nacme/web latest {F.s(HEX, 12)} 2 days ago"),
    ("image_hash", f" => => writing image sha256:{F.s(HEX, 64)} 0.0s"),
    ("image_hash", "blurhash: LEHV6nWB2yk8pyo0adR*.7kCMdnj"),
    ("image_hash", f"phash: {F.s(HEX, 16)}"),
    # Identifiers and the scanners' own negative samples.
    ("identifier", "client_vpn_endpoint_id = aws_ec2_client_vpn_endpoint.client-vpn-endpoint.id"),
    ("identifier", "password combination.\n\nR5: Regulatory--21"),
    ("identifier", 'const HEROKU_KEY = "12345678-ABCD-ABCD-ABCD-1234567890AB"'),
    ("identifier", "AbstractSingletonProxyFactoryBeanDefinitionRegistryPostProcessor"),
    ("identifier", "com.acme.payments.internal.reconciliation.LedgerEntryReconciliationService"),
    ("identifier", "acme-payments-reconciliation-worker-deployment-7d9f8c6b5-x2x9z"),
    ("identifier", "SOME_VERY_LONG_FEATURE_FLAG_NAME_FOR_THE_NEW_CHECKOUT_FLOW_2024=true"),
    ("identifier", "useInfiniteScrollPaginationWithIntersectionObserverAndAbortController"),
    (
        "identifier",
        "ERR_OSSL_EVP_UNSUPPORTED: error:0308010C:digital envelope routines::unsupported",
    ),
    ("identifier", "x-request-id: 7f2c1a9e-3b4d-4c5e-8f6a-0b1c2d3e4f5a"),
    ("identifier", "AKIAIOSFODNN7EXAMPL"),
    ("identifier", "ghp_short"),
    ("identifier", "sk-ssh-ed25519@openssh.com"),
    ("identifier", "placeholder: sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
    ("identifier", "api_key = 'your-api-key-here'"),
    ("identifier", "password = 'changeme'"),
    ("identifier", 'token: "<YOUR_TOKEN>"'),
    ("identifier", "SECRET_KEY=${SECRET_KEY:?must be set}"),
]

# Look-alikes of the second pass's rules (#11): SQL, Windows and FTP commands without a
# password, prose about keys and passwords in other languages, identifiers and base64 of text
# of the length a bare random key now has.
LOOKS += [
    ("second_pass", "CREATE USER app IDENTIFIED BY '${DB_PASSWORD}';"),
    ("second_pass", "ALTER USER app WITH PASSWORD '<password>';"),
    ("second_pass", 'setx PATH "%PATH%;C:\\tools\\bin"'),
    ("second_pass", "setx TOKEN_FILE C:\\Users\\ops\\token.txt"),
    ("second_pass", "net use Z: \\\\fileserver\\share /persistent:yes"),
    ("second_pass", "net use Z: \\\\fileserver\\share * /user:ACME\\deploy"),
    ("second_pass", "lftp -u deploy ftp.example.com"),
    ("second_pass", "das Passwort muss mindestens zwölf Zeichen haben"),
    ("second_pass", "the api key is stored in the vault, not in the repo"),
    ("second_pass", "the code is in src and tests"),
    ("second_pass", "pytest tests/test_TokenRefreshFlow2.py::test_retries"),
    ("second_pass", "class UserProfileSerializerV2(BaseModel):"),
    ("second_pass", "echo aGVsbG8gd29ybGQgZnJvbSBtZQ | base64 -d"),
    ("second_pass", "git checkout -b feature/add-oauth2-login-flow"),
    ("second_pass", "open docs/ReleaseNotes2024Q3Final.md"),
    ("second_pass", "docker run --name web-7f3a2c9d1e4b app:1.2.3"),
    ("third_pass", "ssh-keygen -t ed25519 -N '' -f deploy/id"),
    ("third_pass", 'sudo useradd -m -p "$PASSWORD_HASH" deploy'),
    ("third_pass", "docker run -p 8080:80 -p 8443:443 nginx:1.27"),
    ("third_pass", "echo $REGISTRY_PASSWORD | docker login -u ci --password-stdin"),
]

# Look-alikes the fourth red team saw damaged (#11, class h), and more of the same families:
# variables and files after a password flag, resource names, public ids with their own checksum
# or header (Bitcoin addresses, IPFS CIDs), hashes and request ids in headers.
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _base58check(version: int, payload: bytes) -> str:
    import hashlib

    raw = bytes([version]) + payload
    raw += hashlib.sha256(hashlib.sha256(raw).digest()).digest()[:4]
    number, out = int.from_bytes(raw, "big"), ""
    while number:
        number, digit = divmod(number, 58)
        out = _B58[digit] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def _cid_v0() -> str:
    raw = b"\x12\x20" + bytes(F.rng.randrange(256) for _ in range(32))
    number, out = int.from_bytes(raw, "big"), ""
    while number:
        number, digit = divmod(number, 58)
        out = _B58[digit] + out
    return out


def _cid_v1(codec: int) -> str:
    raw = bytes([1, codec, 0x12, 0x20]) + bytes(F.rng.randrange(256) for _ in range(32))
    return "b" + base64.b32encode(raw).decode().rstrip("=").lower()


def _payload() -> bytes:
    return bytes(F.rng.randrange(256) for _ in range(20))


def _segwit(n: int) -> str:
    return "bc1q" + F.s("qpzry9x8gf2tvdw0s3jn54khce6mua7l", n)


LOOKS += [
    (
        "fourth_pass",
        "az login --service-principal -u 4f2a9c1e-8b7d-4f5a-a4c3-b2a1908f7e6d -p $AZ_SECRET "
        "--tenant acme.onmicrosoft.com",
    ),
    (
        "fourth_pass",
        "az login --service-principal -u http://acme-ci -p ~/certs/acme-ci.pem --tenant acme",
    ),
    (
        "fourth_pass",
        "az login --service-principal -u $APP_ID -p /etc/ssl/private/sp.pem --tenant t",
    ),
    ("fourth_pass", "az login --service-principal -u $APP_ID -p https://vault.acme.io/sp.pem"),
    ("fourth_pass", "kubectl get secret db-password-v2"),
    ("fourth_pass", "kubectl get secret db-password-v2 -o jsonpath='{.data.password}' | base64 -d"),
    ("fourth_pass", "kubectl describe secret api-token-7fz2q -n prod"),
    ("fourth_pass", f"send 0.01 BTC to {_base58check(0, _payload())}"),
    ("fourth_pass", f"bitcoin address: {_base58check(5, _payload())}"),
    ("fourth_pass", f'  "address": "{_base58check(0, _payload())}",'),
    ("fourth_pass", "pay to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
    ("fourth_pass", f"withdrawal to {_segwit(38)} confirmed"),
    ("fourth_pass", "ipfs cat QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG"),
    ("fourth_pass", f"added {_cid_v0()} index.html"),
    ("fourth_pass", "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"),
    ("fourth_pass", f"pinned {_cid_v1(0x55)}"),
    ("fourth_pass", f"magnet:?xt=urn:btih:{F.s(HEX, 40)}&dn=ubuntu-24.04.iso"),
    ("fourth_pass", f"magnet:?xt=urn:btih:{F.s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 32)}&dn=x"),
    ("fourth_pass", f"cf-ray: {F.s(HEX, 16)}-SJC"),
    ("fourth_pass", f"< CF-RAY: {F.s(HEX, 16)}-AMS"),
    ("fourth_pass", f'"sha": "{F.s(HEX, 40)}",'),
    ("fourth_pass", f"git show {F.s(HEX, 40)} --stat"),
    ("fourth_pass", f'"RepoDigests": ["acme/web@sha256:{F.s(HEX, 64)}"]'),
    ("fourth_pass", f"X-Request-Id: {F.uuid()}"),
    ("fourth_pass", f'"requestId":"{F.uuid()}"'),
    ("fourth_pass", f'"integrity":"{_integrity("sha512", 86)}"'),
    ("fourth_pass", f"  integrity: {_integrity('sha512', 86)}"),
    # Mine: headers with opaque ids, public files, options that are no secrets, leave-alones.
    ("own_lookalike", f"x-amz-id-2: {F.s(B64, 76)}="),
    ("own_lookalike", f"x-amz-cf-id: {F.s(B64, 54)}=="),
    ("own_lookalike", f'etag: "{F.s(HEX, 32)}"'),
    # base64 padding after a run that happens to spell "PWD": no assignment
    ("own_lookalike", "x-amz-cf-id: v8OEqYg3LQg_gPWDOXJs6tCU9wNE0xIjN3oCE5Ejy_OAJo7bxXLP7d=="),
    ("own_lookalike", "mysql -u root -p app"),
    ("own_lookalike", "mysql -u root -p app_v2 -e 'select 1'"),
    ("own_lookalike", "mysql -h db -u root -p shop < dump.sql"),
    ("own_lookalike", 'expect "Password:"\nsend "$env(PW)\\r"'),
    ("own_lookalike", 'expect "Continue?"\nsend "yes\\r"'),
    ("own_lookalike", "$pw = ConvertTo-SecureString $env:SVC_PASSWORD -AsPlainText -Force"),
    ("own_lookalike", "Set-Cookie: theme=dark; Path=/; Max-Age=31536000; SameSite=Lax"),
    ("own_lookalike", "Cookie: lang=en-US; tz=Europe%2FParis"),
    ("own_lookalike", "aws s3api get-object --bucket b --key uploads/3f2a9c1e8b7d6f5a.png out.png"),
    ("own_lookalike", "sort --key=2,2 -t, data.csv"),
    ("own_lookalike", f"./sync --cache-key {F.s(HEX, 40)}"),
    ("own_lookalike", "./deploy --ssh-public-key ~/.ssh/id_ed25519.pub"),
    ("own_lookalike", "openssl enc -d -aes-256-cbc -in a.enc -out a -pass env:ENC_PASS"),
    ("own_lookalike", "openssl enc -d -aes-256-cbc -in a.enc -out a -kfile ~/.enc-key"),
    ("own_lookalike", "ldapsearch -x -W -D cn=admin,dc=acme -b dc=acme"),
    ("own_lookalike", "ldapsearch -x -y ~/.ldap-pass -D cn=admin,dc=acme -b dc=acme"),
    ("own_lookalike", "aws configure set region eu-west-1 --profile prod"),
    ("own_lookalike", "aws configure set aws_secret_access_key $AWS_SECRET_ACCESS_KEY"),
    ("own_lookalike", "requests.get(url, auth=(user, password))"),
    ("own_lookalike", "auth = HTTPBasicAuth(username, os.environ['API_PASSWORD'])"),
    ("own_lookalike", 'book = Author("Jane Austen", "Emma")'),
    ("own_lookalike", "jdbc:postgresql://db:5432/app?user=app&password=${DB_PASSWORD}"),
    ("own_lookalike", 'dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", user, pass, host, db)'),
    (
        "own_lookalike",
        "rclone config create remote sftp host h user bob pass $(rclone obscure $PW)",
    ),
    ("own_lookalike", "git config --global credential.helper store"),
    (
        "own_lookalike",
        "echo $REGISTRY_TOKEN | helm registry login reg.acme.io -u ci --password-stdin",
    ),
    ("own_lookalike", "net user deploy /delete"),
    ("own_lookalike", "gh secret set NPM_TOKEN --body -"),
    ("own_lookalike", "kubectl config set-credentials bob --token=$TOKEN"),
    ("own_lookalike", "ldapsearch -x -b dc=acme -H ldap://dc1 '(uid=bob)'"),
    ("own_lookalike", "Cookie: _ga=GA1.2.1234567890.1700000000; _gid=GA1.2.987654321.1700000000"),
    ("own_lookalike", 'expect "$ "\nsend "ls -la\\r"'),
    (
        "own_lookalike",
        "public_key: |\n  " + _ssh("ssh-ed25519", "AAAAC3NzaC1lZDI1NTE5AAAAI", 43, "ci"),
    ),
    ("own_lookalike", "ca_cert: |\n  -----BEGIN CERTIFICATE-----\n  MIIBszCCAVmgAwIBAgIU\n"),
    ("own_lookalike", "Passwort: siehe Wiki"),
    ("own_lookalike", "密码：请联系管理员"),
    ("own_lookalike", "пароль: неверный"),
    ("own_lookalike", "sqlplus / as sysdba"),
    ("own_lookalike", "the password is stored in the vault under kv/app"),
    ("own_lookalike", "Authorization header is required"),
    ("own_lookalike", "authorization: see docs/auth-flow.md"),
    ("own_lookalike", "gpg --recv-key 3F2A9C1E8B7D6F5A4C3B2A1908F7E6D5C4B3A291"),
    ("own_lookalike", "gpg --batch --default-key 3F2A9C1E8B7D6F5A -s notes.txt"),
    ("own_lookalike", "Authorization: Bearer ${API_TOKEN}"),
]
