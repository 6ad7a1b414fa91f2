"""The fifth red team's secret classes (issue #11), by class, placed where a session holds them.

FIFTH: (kind, position, line as it appears, the secret that must vanish).
FIFTH_LOOKS: (class, line) that must come out of redaction unchanged. Values are generated
(guard/fakes.py) or well-known public test values (card 4111 1111 1111 1111, the BIP-39 test
vector); none is a real credential.
"""

from __future__ import annotations

from guard.fakes import ALNUM, DIGITS, HEX, LOWER_ALNUM, Fakes

F = Fakes(55)

PW = [F.word_password() for _ in range(12)]
HEX32 = [F.s(HEX, 32) for _ in range(6)]
HEX37 = F.s(HEX, 37)
HEX64 = [F.s(HEX, 64) for _ in range(3)]
RAND = [F.s(ALNUM, n) for n in (24, 28, 32, 20, 40)]
UUIDS = [F.uuid() for _ in range(3)]
DASHED = ["copper-lantern-orbit-violet", "maple-ferry-quartz-nine-harbor", "tidal-onyx-sparrow"]
LOW_PW = ["summer2026", "Winter2025", "acme1234"]
SESSION = [F.s(LOWER_ALNUM, 32), F.s(ALNUM, 24), F.s(HEX, 26).upper()]
CONNECT_SID = "s%3A" + F.s(ALNUM, 32) + "." + F.s(ALNUM, 43)
NETLIFY = F.s(HEX, 24)
ZAPIER = (F.s(DIGITS, 7), F.s(LOWER_ALNUM, 6))
OFFICE = f"{F.uuid()}@{F.uuid()}/IncomingWebhook/{F.s(HEX, 32)}/{F.uuid()}"
MAKE = F.s(LOWER_ALNUM, 32)
IFTTT = F.s(ALNUM, 22)
DISCORD = (F.s(DIGITS, 18), F.s(ALNUM + "_-", 68))
TEAMS_SIG = F.s(ALNUM + "_-", 43)
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
TOTP = [F.s(B32, 32), F.s(B32, 16), F.s(B32, 26)]
ETH = ["0x" + h for h in HEX64]
# The BIP-39 test vector's mnemonic (public, in the BIP itself) and two more runs of list words.
BIP39_12 = "legal winner thank year wave sausage worth useful legal winner thank yellow"
BIP39_24 = (
    "letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd "
    "amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic bless"
)
BIP39_OTHER = "panda eyebrow bullet gorilla call smoke muffin taste mesh discover soft ostrich"
CARDS = ["4111 1111 1111 1111", "5555-5555-5555-4444", "378282246310005", "6011000990139424"]
VAULT_LINES = [F.s(HEX, 80) for _ in range(3)]
VAULT = "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(VAULT_LINES)
GCP_KEY_ID = F.s(HEX, 40)
AGE = "AGE-SECRET-KEY-1" + F.s("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)

FIFTH: list[tuple[str, str, str, str]] = [
    # 1. Prose: a value near a naming word, without "=" or ":".
    ("prose_login_slash", "prompt", f"the staging admin login is admin / {PW[0]}", PW[0]),
    (
        "prose_login_slash",
        "prompt",
        f"always log in to staging as admin / {PW[1]} for the e2e tests",
        PW[1],
    ),
    ("prose_login_slash", "assistant", f"I'll log in as qa-bot/{PW[2]} and rerun it.", PW[2]),
    ("prose_login_with", "prompt", f"log in as admin with {PW[3]} and check the page", PW[3]),
    ("prose_login_with", "assistant", f"Logging in as ops using {LOW_PW[2]} now.", LOW_PW[2]),
    (
        "prose_passphrase",
        "prompt",
        f"the passphrase for the deploy key is {DASHED[0]}",
        DASHED[0],
    ),
    ("prose_passphrase", "assistant", f"The key's passphrase is {DASHED[1]}.", DASHED[1]),
    ("prose_password", "prompt", f"the password is {LOW_PW[0]}", LOW_PW[0]),
    ("prose_password", "prompt", f"db password for staging {PW[4]} (don't commit it)", PW[4]),
    ("prose_hex_key", "prompt", f"The Datadog key {HEX32[0]} is rejected", HEX32[0]),
    ("prose_hex_key", "prompt", f"twilio auth {HEX32[1]}", HEX32[1]),
    ("wallet_key", "cat", f"wallet 0x{HEX64[2]}\nnetwork: mainnet", HEX64[2]),
    ("wallet_key", "assistant", f"The private key {HEX64[1]} signs for the deployer.", HEX64[1]),
    # "commit" the verb, before the naming word, says nothing of the value (a red-team case)
    ("prose_hex_key", "prompt", f"never commit the datadog key {HEX32[5]} again", HEX32[5]),
    ("prose_hex_key", "assistant", f"The Cloudflare global key {HEX37} works.", HEX37),
    ("prose_hex_key", "stdout", f"New API key created: {HEX32[2]}", HEX32[2]),
    ("prose_token", "prompt", f"token {RAND[0]}", RAND[0]),
    ("prose_token", "prompt", f"sendgrid api key {RAND[1]} is the new one", RAND[1]),
    ("prose_token", "assistant", f"Using the heroku token {UUIDS[0]} for the deploy.", UUIDS[0]),
    ("prose_token", "prompt", f"heroku api key is {UUIDS[1]}", UUIDS[1]),
    ("prose_token", "prompt", f"the secret for the webhook is {RAND[3]}", RAND[3]),
    # 2. Credentials in test and fixture calls.
    ("call_credentials", "write", f"    login('admin', '{PW[5]}')", PW[5]),
    ("call_credentials", "write", f'    authenticate(user, "{PW[6]}")', PW[6]),
    (
        "call_credentials",
        "write",
        f'    sign_in(email: "qa@acme.io", password: "{PW[7]}")',
        PW[7],
    ),
    ("call_credentials", "tool_input", f'await page.login("admin", "{LOW_PW[1]}");', LOW_PW[1]),
    # 3. sudo's here-string; password-like flags, whatever their value's entropy.
    ("sudo_here_string", "command", f"sudo -S <<< '{PW[8]}' apt-get update", PW[8]),
    (
        "sudo_here_string",
        "command",
        f'sudo -k -S <<< "{LOW_PW[0]}" systemctl restart app',
        LOW_PW[0],
    ),
    ("password_flag", "command", f"./e2e.sh --psw={LOW_PW[0]} --env staging", LOW_PW[0]),
    ("password_flag", "command", f"./deploy --pwd={LOW_PW[1]}", LOW_PW[1]),
    ("password_flag", "command", f"vpn-connect --pass={LOW_PW[2]} --user bob", LOW_PW[2]),
    ("password_flag", "command", f"./seed --passwd={PW[9]}", PW[9]),
    ("password_flag", "command", f"./seed --admin-pass {LOW_PW[0]} --reset", LOW_PW[0]),
    ("password_flag", "command", f"./run-e2e --root-pw {LOW_PW[1]}", LOW_PW[1]),
    # 4. Cookies in prose and flags.
    ("cookie_prose", "prompt", f"my sessionid={SESSION[0]} still works", SESSION[0]),
    ("cookie_prose", "stdout", f"connect.sid={CONNECT_SID}", CONNECT_SID),
    (
        "cookie_prose",
        "command",
        f'curl -b "_session={SESSION[1]}" https://app.acme.io/me',
        SESSION[1],
    ),
    ("cookie_prose", "assistant", f"The PHPSESSID={SESSION[2]} cookie expired.", SESSION[2]),
    ("cookie_prose", "prompt", f"use JSESSIONID={SESSION[2]} for the admin UI", SESSION[2]),
    # 5. Webhook URLs whose path is the secret.
    (
        "webhook_url",
        "command",
        f"curl -X POST -d '{{}}' https://api.netlify.com/build_hooks/{NETLIFY}",
        NETLIFY,
    ),
    (
        "webhook_url",
        "cat",
        f"ZAP_URL=https://hooks.zapier.com/hooks/catch/{ZAPIER[0]}/{ZAPIER[1]}/",
        f"{ZAPIER[0]}/{ZAPIER[1]}",
    ),
    (
        "webhook_url",
        "prompt",
        f"post it to https://acme.webhook.office.com/webhookb2/{OFFICE}",
        OFFICE[-36:],
    ),
    ("webhook_url", "stdout", f"hook: https://hook.eu1.make.com/{MAKE}", MAKE),
    (
        "webhook_url",
        "command",
        f"curl https://maker.ifttt.com/trigger/deploy_done/with/key/{IFTTT}",
        IFTTT,
    ),
    (
        "webhook_url",
        "cat",
        f"DISCORD_HOOK=https://discord.com/api/webhooks/{DISCORD[0]}/{DISCORD[1]}",
        DISCORD[1],
    ),
    (
        "webhook_url",
        "assistant",
        "I'll post to https://prod-12.westus.logic.azure.com:443/workflows/abc/triggers/manual"
        f"/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={TEAMS_SIG}",
        TEAMS_SIG,
    ),
    # 6. Key material in tool output.
    ("totp_seed", "stdout", f"Your 2FA seed: {TOTP[0]}", TOTP[0]),
    ("totp_seed", "stdout", f"secret {TOTP[1]}", TOTP[1]),
    (
        "totp_seed",
        "stdout",
        f"otpauth://totp/Acme:bob@acme.io?secret={TOTP[2]}&issuer=Acme",
        TOTP[2],
    ),
    ("totp_seed", "stdout", "Your TOTP secret is jbsw y3dp ehpk 3pxp", "y3dp ehpk"),
    ("totp_seed", "prompt", "the 2fa seed: JBSWY3DPEHPK3PXP", "JBSWY3DPEHPK3PXP"),
    ("password_env", "cat", f"SMTP_PASS={LOW_PW[0]}", LOW_PW[0]),
    ("password_env", "command", f"DB_PASS='{LOW_PW[1]}' npm run migrate", LOW_PW[1]),
    ("prose_login_slash", "prompt", f"creds: deploy / {PW[10]}", PW[10]),
    ("eth_private_key", "stdout", f"Address: 0x{F.s(HEX, 40)}\nPrivate key: {ETH[0]}", ETH[0]),
    ("eth_private_key", "cat", f"PRIVATE_KEY={ETH[1]}", ETH[1]),
    ("eth_private_key", "assistant", f"The deployer's private key is {ETH[2]}.", ETH[2]),
    ("bip39_mnemonic", "stdout", f"Mnemonic: {BIP39_12}", "sausage worth useful"),
    ("bip39_mnemonic", "stdout", f"Phrase:\n{BIP39_24}", "acoustic avoid letter"),
    ("bip39_mnemonic", "prompt", f"the seed phrase is {BIP39_OTHER}", "smoke muffin taste"),
    ("payment_card", "stdout", f"card: {CARDS[0]} exp 12/29 cvc 123", CARDS[0]),
    ("payment_card", "prompt", f"charge {CARDS[1]} for the test", CARDS[1]),
    ("payment_card", "stdout", f'{{"number": "{CARDS[2]}", "exp_month": 12}}', CARDS[2]),
    ("payment_card", "cat", f"TEST_CARD={CARDS[3]}", CARDS[3]),
    (
        "ansible_vault",
        "cat",
        f"db_password: !vault |\n  {VAULT.replace(chr(10), chr(10) + '  ')}",
        VAULT_LINES[1],
    ),
    ("ansible_vault", "stdout", VAULT, VAULT_LINES[0]),
    (
        "gcp_private_key_id",
        "cat",
        f'  "private_key_id": "{GCP_KEY_ID}",',
        GCP_KEY_ID,
    ),
    ("age_secret_key", "stdout", f"# public key: age1{F.s(LOWER_ALNUM, 58)}\n{AGE}", AGE),
    ("heroku_uuid", "cat", f"HEROKU_API_KEY={UUIDS[2]}", UUIDS[2]),
    # Session 6's red team: a bare "pass", a passcode of digits, a passphrase of words after a
    # label, a value echoed into a file named for a secret.
    ("prose_pass", "prompt", f"Deploy to the staging box. The pass is {PW[10]} Use it.", PW[10]),
    ("prose_passcode", "prompt", "Deploy it. The vault passcode is 482913.", "482913"),
    (
        "label_passphrase",
        "prompt",
        "Deploy it. Use passphrase: purple monkey dishwasher lamp",
        "purple monkey dishwasher",
    ),
    ("echo_to_secret_file", "command", f"echo {PW[11]} > .dbpass", PW[11]),
    ("echo_to_secret_file", "command", f"printf '{LOW_PW[0]}' >> ~/.pgpass", LOW_PW[0]),
]


FIFTH_LOOKS: list[tuple[str, str]] = [
    ("hash_after_word", f"the fix is in commit {F.s(HEX, 40)}"),
    ("hash_after_word", f"the cache key {F.s(HEX, 32)} is stale after the deploy"),
    ("hash_after_word", f"wallet address 0x{F.s(HEX, 40)} holds the test funds"),
    ("hash_after_word", f"token refresh landed in sha {F.s(HEX, 40)}"),
    ("hash_after_word", f"the key rotation commit is {F.s(HEX, 40)}"),
    ("hash_after_word", f"image digest sha256:{F.s(HEX, 64)}"),
    ("hash_after_word", f"checksum of the key file: {F.s(HEX, 64)}"),
    ("hash_after_word", f"the password hash column stores sha256 {F.s(HEX, 64)}"),
    ("hash_after_word", '"integrity": "sha512-' + F.s(ALNUM + "+/", 86) + '=="'),
    ("hash_after_word", f"the API key fingerprint is {F.s(HEX, 32)}"),
    ("request_id", f"auth failed, request id {F.uuid()}"),
    ("request_id", f"token rejected (trace id {F.uuid()})"),
    ("test_name", "FAILED tests/test_auth.py::test_password_reset_token_expires - assert 401"),
    ("test_name", "def test_login_with_expired_token_returns_401(client):"),
    ("option_name", "use --password-file /run/secrets/db instead"),
    ("option_name", "pass --token-path ~/.config/acme/token to the CLI"),
    ("option_name", "the --api-key-env flag names the variable"),
    ("reference", "the key is in 1Password"),
    ("reference", "the password is in 1Password under Staging"),
    ("reference", "password: see vault"),
    ("reference", "token: $GITHUB_TOKEN"),
    ("reference", "the api key is in the .env file"),
    ("reference", "log in as admin with the password from the vault"),
    ("reference", "the password for admin is in docs/setup.md"),
    ("placeholder", "set the key to <your-api-key>"),
    ("placeholder", "export OPENAI_API_KEY=sk-xxxx"),
    ("placeholder", "the token is your-key-here"),
    ("placeholder", "password: ***"),
    ("number", "order 4111 1111 1111 1112 shipped"),
    ("number", "order id 1234567812345678 is pending"),
    ("number", "see issue #4242 and PR 1111"),
    ("number", "the auth service listens on port 8443"),
    ("number", "token bucket refills 4000 per minute"),
    ("number", "epoch ms 1764547200000 in the log"),
    ("words", "please make sure the build runs before you push the branch to main today"),
    ("words", "the token expired so the login page showed an error and the user left"),
    ("words", "secret santa list is ready"),
    ("words", "the key point is that the login flow is broken"),
    ("words", "pin numpy==1.26.4 in requirements"),
    ("version", "password hashing moved to argon2 in v2.3.1"),
    ("colour", "the login button colour is #1a2b3c"),
    ("cookie_name", "set SESSION_COOKIE_NAME=sessionid in settings"),
    ("cookie_name", "the sessionid cookie is HttpOnly"),
    ("webhook_doc", "see https://api.netlify.com/build_hooks/ docs for the hook id"),
    ("webhook_doc", "https://hooks.zapier.com/hooks/catch/<id>/<key>/ is the shape"),
    ("seed_words", "random seed: 12345 for reproducibility"),
    ("seed_words", "the seed data lives in db/seeds.rb"),
    ("option_name", "DB_PASS_FILE=/run/secrets/db"),
    ("key_words", "the primary key is user_id"),
    ("key_words", "the idempotency key 123e4567-e89b-12d3-a456-426614174000 was reused"),
    ("key_words", "press the key combination ctrl-shift-p"),
    ("key_words", "the key type is ed25519"),
    # Session 6: the same words as prose, a variable, a file of no secret.
    ("pass_words", "the passphrase is stored in the vault"),
    ("pass_words", "tests pass: all 40 of them"),
    ("pass_words", "the build pass is green"),
    ("echo_variable", 'echo "$TOKEN" > .token'),
    ("echo_plain_file", "echo hello > notes.txt"),
]
