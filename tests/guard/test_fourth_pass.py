"""The fourth red team's classes (#11 g, h): exact outcomes of the decisions the rules make, where
the corpora only say "redacted" or "unchanged"."""

from __future__ import annotations

from pathlib import Path

from hindsight.randomness import public_id
from hindsight.redact import redact, redact_blocks


def test_mysql_spaced_p_is_a_password_only_when_the_command_says_so() -> None:
    # mysql reads the word after a spaced -p as the database: alone, it stays.
    assert redact("mysql -u root -p shop") == "mysql -u root -p shop"
    assert (
        redact("mysql -u root -p app_v2 -e 'select 1'") == "mysql -u root -p app_v2 -e 'select 1'"
    )
    assert (
        redact("mysql -h db -u root -p shop < dump.sql") == "mysql -h db -u root -p shop < dump.sql"
    )
    # A second positional word: the first was a password typed with a space.
    assert redact("mysql -u root -p hunter2 shop") == "mysql -u root -p [REDACTED:password] shop"
    # A character no bare database name holds, or a random look.
    assert redact("mysql -u root -p s3cr3t! -e 'show tables'") == (
        "mysql -u root -p [REDACTED:password] -e 'show tables'"
    )
    assert redact("mysqldump -u root -p Qz8mL2vX9pR4 shop t1") == (
        "mysqldump -u root -p [REDACTED:password] shop t1"
    )
    # mysqldump takes tables after the database: two words are no sign there.
    assert redact("mysqldump -u root -p shop orders") == "mysqldump -u root -p shop orders"


def test_fullwidth_and_compatibility_forms_are_folded_before_matching() -> None:
    assert redact("ＰＡＳＳＷＯＲＤ＝Ｗｑ７ｐＬｍ２ｘＺｋ") == "PASSWORD=[REDACTED:password]"
    assert redact("パスワード：Ｋｉｒｉｎ２０２４") == "パスワード：[REDACTED:password]"
    assert redact("ｐａｓｓｗｏｒｄ: Ｋｉｒｉｎ２０２４ ok") == "password: [REDACTED:password] ok"
    # Without a secret a line keeps its own characters.
    assert redact("ＡＰＩの説明：ＲＥＡＤＭＥを参照") == "ＡＰＩの説明：ＲＥＡＤＭＥを参照"


def test_other_languages_after_a_colon_take_any_value_but_prose() -> None:
    assert redact("密码：mimaabcd") == "密码：[REDACTED:password]"
    assert redact("Passwort: siehe Wiki") == "Passwort: siehe Wiki"
    assert redact("пароль: неверный") == "пароль: неверный"
    assert redact("비밀번호: Sarang12! 로 로그인") == "비밀번호: [REDACTED:password] 로 로그인"
    assert redact("la password è Gatto2024") == "la password è [REDACTED:password]"


def test_a_yaml_block_scalar_keeps_its_shape() -> None:
    text = "db:\n  password: |\n    Wq7pLm2xZk\n    second-line\n  host: db\n"
    assert redact(text) == (
        "db:\n  password: |\n    [REDACTED:secret]\n    [REDACTED:secret]\n  host: db\n"
    )
    public = "public_key: |\n  ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG8 ci\n"
    assert redact(public) == public
    # The digest redacts excerpts line by line: the block is seen first (the corpus's CLI test
    # checks the digest itself).
    assert redact_blocks("token: >-\n  Wq7pLm2xZk\n") == "token: >-\n  [REDACTED:secret]\n"


def test_cookies_lose_session_values_and_keep_attributes() -> None:
    assert redact("Set-Cookie: sid=Wq7pLm2xZkQ3rT9v; Path=/; Max-Age=3600; HttpOnly") == (
        "Set-Cookie: sid=[REDACTED:cookie]; Path=/; Max-Age=3600; HttpOnly"
    )
    assert redact("Cookie: theme=dark; lang=en-US") == "Cookie: theme=dark; lang=en-US"


def test_a_variable_a_file_or_a_url_after_login_p_is_no_password() -> None:
    for line in (
        "az login --service-principal -u $APP -p $AZ_SECRET --tenant t",
        "az login --service-principal -u http://ci -p ~/certs/ci.pem --tenant t",
        "az login --service-principal -u http://ci -p https://vault.acme.io/ci.pem",
    ):
        assert redact(line) == line
    assert redact("docker login -u bot -p Wq7pLm2xZk reg.io") == (
        "docker login -u bot -p [REDACTED:password] reg.io"
    )


def test_public_ids_are_told_from_keys_by_their_checksum() -> None:
    assert public_id("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")
    assert not public_id("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb")  # one character off
    assert public_id("QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG")
    assert public_id("bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi")
    assert not public_id("Zq8Jm2XvT4pL9sW1nB6yR3kD7fH0cG5aE")
    assert redact("send to 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb now") == (
        "send to [REDACTED:high_entropy] now"
    )


def test_every_language_label_takes_its_value() -> None:
    labels = (
        *[
            "Passwort",
            "Kennwort",
            "heslo",
            "lösenord",
            "salasana",
            "adgangskode",
            "passord",
            "jelszó",
            "parolă",
        ],
        *[
            "пароль",
            "κωδικός",
            "סיסמה",
            "पासवर्ड",
            "รหัสผ่าน",
            "密码",
            "密碼",
            "口令",
            "パスワード",
            "暗証番号",
            "비밀번호",
            "암호",
        ],
        "kata sandi",
        "mật khẩu",
        "كلمة المرور",
        "mot de passe",
        "contraseña",
        "parola d'ordine",
    )
    for label in labels:
        assert redact(f"{label}: Tq7mWx92") == f"{label}: [REDACTED:password]", label


def test_a_token_printed_alone_by_its_command_is_redacted_in_the_digest(tmp_path: Path) -> None:
    """`heroku auth:token` prints a UUID, which no pattern takes for a secret; the digest shows
    the output apart from its command, so the reader's output is redacted by its command."""
    import json

    from conftest import Script, make_repo, run_cli
    from hindsight.sources.claude_files import claude_folder_name

    token, request = "5f0c7e52-8d1b-4e2a-9c3f-7a6b5d4e3f21", "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"
    root, _ = make_repo(tmp_path)
    home = tmp_path / "home"
    folder = home / "projects" / claude_folder_name(str(root))
    folder.mkdir(parents=True)
    s = Script(cwd=str(root)).prompt("why does the deploy fail?", 0)
    s.bash("heroku auth:token", 1, 1, 0, f"{token}\n ›   Warning: token will expire 12/30/2026")
    s.bash("curl -s https://api.example.com/health", 3, 1, 0, f"request {request} ok")
    (folder / "s1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in s.records))
    done = run_cli("digest", "--since", "7d", "--claude-home", str(home), cwd=root)
    assert done.returncode == 0, done.stderr
    assert token not in done.stdout and "[REDACTED:token] | › Warning" in done.stdout
    assert request in done.stdout  # a UUID another command printed is an id
