"""The fifth red team's classes (#11): exact outcomes of the rules, and memory's default-deny for
a credential named next to a literal value, through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import Script, make_repo, run_cli, written_text
from guard.fakes import Fakes
from hindsight import admit
from hindsight.redact import redact
from hindsight.secret_context import luhn
from hindsight.sources.claude_files import claude_folder_name

F = Fakes(56)
PW = F.word_password()


def test_a_value_near_its_naming_word_in_prose() -> None:
    assert redact("the staging admin login is admin / Wq7!pLm2x") == (
        "the staging admin login is admin / [REDACTED:password]"
    )
    assert redact("log in as admin with Wq7!pLm2x and check") == (
        "log in as admin with [REDACTED:password] and check"
    )
    assert redact("the passphrase for the deploy key is copper-lantern-orbit-violet") == (
        "the passphrase for the deploy key is [REDACTED:password]"
    )
    key = "07ff6d0be82dbdca214d40218b12d70e"
    assert redact(f"The Datadog key {key} is rejected") == (
        "The Datadog key [REDACTED:secret] is rejected"
    )
    # The same hex after a hash word is a hash; a place, a variable, a word are no values.
    for line in (
        f"the key rotation commit is {key}",
        f"the API key fingerprint is {key}",
        "the password is in 1Password",
        "token: $GITHUB_TOKEN",
        "log in as admin with the password from the vault",
        "kubectl describe secret api-token-7fz2q -n prod",
        "pin numpy==1.26.4 in requirements",
    ):
        assert redact(line) == line


def test_flags_here_strings_and_cookies() -> None:
    assert redact("sudo -S <<< 'summer2026' apt-get update") == (
        "sudo -S <<< [REDACTED:password] apt-get update"
    )
    assert redact("./e2e.sh --psw=summer2026 --env staging") == (
        "./e2e.sh --psw=[REDACTED:secret] --env staging"
    )
    assert redact("./seed --admin-pass summer2026") == "./seed --admin-pass [REDACTED:secret]"
    assert redact("my sessionid=0axg5mcm4cll6348eduxy3l6gt76cpqh works") == (
        "my sessionid=[REDACTED:cookie] works"
    )
    assert redact("set SESSION_COOKIE_NAME=sessionid") == "set SESSION_COOKIE_NAME=sessionid"


def test_webhooks_keep_their_host() -> None:
    hook = "fe39d16c71a0f99ccc17136d"
    assert redact(f"curl -X POST https://api.netlify.com/build_hooks/{hook}") == (
        "curl -X POST https://api.netlify.com/build_hooks/[REDACTED:netlify_build_hook]"
    )
    assert redact("https://hooks.zapier.com/hooks/catch/4536058/diilnr/") == (
        "https://hooks.zapier.com/hooks/catch/[REDACTED:zapier_webhook]"
    )


def test_key_material_in_tool_output() -> None:
    vault = "$ANSIBLE_VAULT;1.1;AES256\n" + "6231" * 20 + "\n" + "3865" * 20 + "\n"
    assert redact(vault) == "$ANSIBLE_VAULT;1.1;AES256\n[REDACTED:ansible_vault]\n"
    words = "legal winner thank year wave sausage worth useful legal winner thank yellow"
    assert redact(f"Mnemonic: {words}") == "Mnemonic: [REDACTED:mnemonic]"
    # Twelve words that are not all on the list, or list words with no phrase named, stay.
    prose = "please make sure the build runs before you push the branch to main today"
    assert redact(f"seed: {prose}") == f"seed: {prose}"
    assert redact(words) == words
    assert (
        redact("card: 4111 1111 1111 1111 exp 12/29") == "card: [REDACTED:payment_card] exp 12/29"
    )
    assert redact("order 4111 1111 1111 1112 shipped") == "order 4111 1111 1111 1112 shipped"
    assert luhn("4111111111111111") and not luhn("4111111111111112")
    assert redact("epoch 1764547200000 ms") == "epoch 1764547200000 ms"


def test_credential_context_is_no_memory() -> None:
    for text in (
        f"always log in to staging as admin / {PW} for the e2e tests",
        "always log in to staging as admin / [REDACTED:password] for the e2e tests",
        "the staging password is summer2026",
        "Log in as admin/Hunter22 first",
    ):
        assert admit.credential_context(text), text
    for text in (
        "token: $GITHUB_TOKEN",
        "password: see vault",
        "The key is in 1Password",
        "Use --password-stdin with docker login",
        "test_password_reset_token_expires fails on CI",
        "git clone https://[REDACTED:github_token]@github.com/x worked",
        "Set API_KEY=<your-api-key>",
        "The auth tests need redis7 running",
    ):
        assert not admit.credential_context(text), text


def _session(root: Path, words: str) -> list[dict]:
    s = Script(cwd=str(root))
    s.prompt("run the e2e tests", 0)
    s.bash("npm run e2e", 1, 1, 1, "Error: login failed for user e2e")
    s.prompt(f"no, always log in to staging as {words} for the e2e tests", 5)
    s.bash("npm run e2e -- --env staging", 8, 1)
    return s.records


def test_run_keeps_a_typed_login_out_of_memory(tmp_path: Path) -> None:
    root, _ = make_repo(tmp_path)
    home = tmp_path / "home"
    folder = home / "projects" / claude_folder_name(str(root))
    folder.mkdir(parents=True)
    typed = (f"admin / {PW}", "the e2e user")
    for n, words in enumerate(typed):
        records = _session(root, words)
        (folder / f"s{n}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    done = run_cli(
        "run", "--json", "--claude-home", str(home), "--since", "3650d", cwd=root,
        env={"HINDSIGHT_NOW": "2026-11-30T15:00:00Z"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    memory_dir = folder / "memory"
    memory = (memory_dir / "MEMORY.md").read_text()
    assert "always log in to staging as the e2e user" in memory  # the control enters
    assert PW not in memory and "as admin" not in memory
    written = written_text(memory_dir)
    assert PW not in written + done.stdout + done.stderr
    report = next((memory_dir / "hindsight" / "reports").glob("*.md")).read_text()
    lines = report.splitlines()
    at = next(n for n, ln in enumerate(lines) if "as admin / [REDACTED:password]" in ln)
    assert lines[at - 2].endswith(f"strength 4): {admit.CREDENTIAL}")
