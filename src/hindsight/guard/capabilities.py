"""The consequence gate's policy, as data: what opens each capability and what clears it.

A reviewer reads this file, not the engine (``classify``). Each capability is opened by the
programs, subcommands, flags, variables and plain words listed under it; ``clears`` says what the
repository must define for the step to stay closed. Nothing here is a list of attack phrasings: a
lesson is judged by what it would make the next session do.
"""

from __future__ import annotations

from typing import NamedTuple

RUN_NEW_CODE = "run-new-code"  # code from a place the repository does not define
NEW_HOST = "new-host"  # a host, registry, remote or image the repository does not configure
WEAKEN_CHECK = "weaken-check"  # hooks, verification, tests, CI, review, lint, TLS, auth
DESTROY_PUBLISH = "destroy-publish"  # deletes, rewrites history, pushes out, deploys
CREDENTIALS = "credentials"  # keys, tokens, keychains, ssh/gpg material, env files
NAMES = (RUN_NEW_CODE, NEW_HOST, WEAKEN_CHECK, DESTROY_PUBLISH, CREDENTIALS)


class Step(NamedTuple):
    """A command that opens ``capability``: ``program`` ("*" any), then ``words`` (its first
    words that are no flags, in order; "*" any word), then any one of ``flags`` (fnmatch
    patterns; a one-letter ``-x`` also matches a bundle such as ``-fx``; () the words alone open)."""

    capability: str
    program: str
    words: tuple[str, ...]
    flags: tuple[str, ...]
    why: str


_C, _H, _W, _D, _K = RUN_NEW_CODE, NEW_HOST, WEAKEN_CHECK, DESTROY_PUBLISH, CREDENTIALS
_RELEASE = ("create", "upload", "delete", "edit")

# A rehearsal changes nothing: a destroy-publish step run with one of these flags is cleared.
REHEARSALS = ("--dry-run", "--dry-run=*", "--check", "--what-if", "--whatif", "--noop")

COMMANDS: tuple[Step, ...] = (
    # weaken-check: skipping hooks, signatures, TLS, or a check's own refusal
    Step(_W, "*", (), ("--no-verify", "--no-gpg-sign", "--insecure", "--no-check-certificate",
                       "--trusted-host*", "--no-verify-ssl", "--ignore-certificate-errors",
                       "--strict-ssl=false", "--skip-checks", "-DskipTests*", "-Dmaven.test.skip*",
                       "--disable-hooks", "--no-hooks"), "skips a check"),
    Step(_W, "git", ("commit",), ("-n",), "skips the commit hooks"),
    Step(_W, "curl", (), ("-k",), "turns off TLS verification"),
    Step(_W, "npm", ("install",), ("--force", "-f"), "forces past npm's checks"),
    Step(_W, "npm", ("ci",), ("--force", "-f"), "forces past npm's checks"),
    Step(_W, "npm", ("audit", "fix"), ("--force",), "forces past npm's checks"),
    Step(_W, "pre-commit", ("uninstall",), (), "removes the commit hooks"),
    # destroy-publish: history, deletion, publishing, deploying, infrastructure
    Step(_D, "git", ("push",), ("--force*", "-f", "+*", "--mirror", "--delete", "-d", "--prune"),
         "force-pushes or deletes remote branches"),
    Step(_D, "git", ("rebase",), ("-i", "--interactive", "--root"), "rewrites history"),
    Step(_D, "git", ("filter-branch",), (), "rewrites history"),
    Step(_D, "git", ("filter-repo",), (), "rewrites history"),
    Step(_D, "git", ("reset",), ("--hard",), "discards commits and changes"),
    Step(_D, "git", ("clean",), ("-f", "--force"), "deletes untracked files"),
    Step(_D, "git", ("branch",), ("-D", "-d", "--delete"), "deletes a branch"),
    Step(_D, "git", ("stash", "drop"), (), "discards stashed work"),
    Step(_D, "git", ("stash", "clear"), (), "discards stashed work"),
    *(Step(_D, p, ("publish",), (), "publishes a package")
      for p in ("npm", "pnpm", "yarn", "bun", "cargo", "poetry", "uv", "flit", "hatch", "pdm")),
    Step(_D, "twine", ("upload",), (), "publishes a package"),
    Step(_D, "gem", ("push",), (), "publishes a package"),
    Step(_D, "docker", ("push",), (), "publishes an image"),
    Step(_D, "podman", ("push",), (), "publishes an image"),
    *(Step(_D, "gh", ("release", w), (), "publishes a release") for w in _RELEASE),
    Step(_D, "gh", ("pr", "merge"), ("--admin",), "merges with admin rights"),
    Step(_D, "gh", ("repo", "delete"), (), "deletes a repository"),
    *(Step(_D, p, (w,), (), "applies or destroys infrastructure")
      for p in ("terraform", "tofu") for w in ("apply", "destroy", "import", "state")),
    *(Step(_D, "pulumi", (w,), (), "applies or destroys infrastructure")
      for w in ("up", "destroy", "refresh")),
    *(Step(_D, "kubectl", (w,), (), "changes a cluster")
      for w in ("apply", "delete", "create", "replace", "patch", "scale", "rollout", "edit",
                "drain")),
    *(Step(_D, "helm", (w,), (), "changes a cluster")
      for w in ("install", "upgrade", "uninstall", "rollback", "delete")),
    *(Step(_D, p, ("deploy",), (), "deploys")
      for p in ("vercel", "netlify", "fly", "flyctl", "firebase", "serverless", "sls", "cdk",
                "eb", "wrangler")),
    Step(_D, "vercel", (), ("--prod",), "deploys"),
    Step(_D, "cdk", ("destroy",), (), "destroys infrastructure"),
    Step(_D, "gcloud", ("*", "deploy"), (), "deploys"),
    Step(_D, "aws", ("s3", "rm"), (), "deletes cloud storage"),
    Step(_D, "aws", ("cloudformation", "deploy"), (), "deploys"),
    Step(_D, "aws", ("cloudformation", "delete-stack"), (), "destroys infrastructure"),
    Step(_D, "ansible-playbook", (), (), "applies infrastructure"),
    Step(_D, "docker", ("compose", "down"), ("-v", "--volumes"), "deletes volumes"),
    Step(_D, "dropdb", (), (), "deletes a database"),
    # credentials: keychains, tokens, ssh and gpg material
    *(Step(_K, "security", (w,), (), "reads the keychain")
      for w in ("find-generic-password", "find-internet-password", "dump-keychain", "export",
                "unlock-keychain")),
    Step(_K, "gh", ("auth",), (), "handles GitHub credentials"),
    Step(_K, "ssh-keygen", (), (), "makes or reads ssh keys"),
    Step(_K, "ssh-add", (), (), "loads ssh keys"),
    Step(_K, "gpg", (), ("--export-secret-*", "--gen-key", "--full-generate-key",
                         "--generate-key", "--import", "--delete-secret-*"), "handles gpg keys"),
    Step(_K, "aws", ("configure",), (), "handles cloud credentials"),
    Step(_K, "aws", ("sts",), (), "handles cloud credentials"),
    Step(_K, "aws", ("secretsmanager",), (), "reads secrets"),
    Step(_K, "gcloud", ("auth",), (), "handles cloud credentials"),
    Step(_K, "az", ("account", "get-access-token"), (), "handles cloud credentials"),
    Step(_K, "az", ("login",), (), "handles cloud credentials"),
    *(Step(_K, p, (), (), "reads a password store") for p in ("op", "pass", "secret-tool")),
    Step(_K, "vault", (), (), "reads secrets"),
    Step(_K, "keyring", (), (), "reads the keyring"),
    *(Step(_K, "npm", (w,), (), "handles registry tokens") for w in ("token", "login", "adduser")),
    Step(_K, "docker", ("login",), (), "stores registry credentials"),
    Step(_K, "git", ("credential",), (), "handles git credentials"),
    Step(_K, "kubectl", ("get", "secret*"), (), "reads cluster secrets"),
    # run-new-code: a tool's configuration changed, for this call or for good
    Step(_C, "git", ("config", "*", "*"), (), "changes git's configuration"),
    Step(_C, "git", ("config",), ("--unset*", "--add", "--replace-all", "--edit", "-e"),
         "changes git's configuration"),
    Step(_C, "git", ("remote", "add"), (), "adds a git remote"),
    Step(_C, "git", ("remote", "set-url"), (), "changes a git remote"),
    *(Step(_C, p, ("config", w), (), f"changes {p}'s configuration")
      for p in ("npm", "pnpm", "yarn", "pip", "pip3") for w in ("set", "delete", "unset", "edit")),
    Step(_C, "npm", ("set",), (), "changes npm's configuration"),
    Step(_C, "poetry", ("config", "*", "*"), (), "changes poetry's configuration"),
    Step(_C, "conda", ("config",), ("--add", "--set", "--append", "--prepend"),
         "changes conda's configuration"),
    Step(_C, "gh", ("config", "set"), (), "changes gh's configuration"),
    Step(_C, "go", ("env",), ("-w",), "changes go's configuration"),
    Step(_C, "eval", (), (), "evaluates text as code"),
)  # fmt: skip

# git -c KEY=VALUE for one call: these keys weaken a check, these change nothing that runs;
# every other key (hooksPath, sshCommand, fsmonitor, alias.*, url.*.insteadOf...) loads code
# or reaches elsewhere, so it opens run-new-code.
GIT_WEAKENING_KEYS = ("http.sslverify", "commit.gpgsign", "tag.gpgsign", "safe.directory",
                      "http.sslcainfo", "core.hookspath=/dev/null")  # fmt: skip
GIT_HARMLESS_KEYS = ("user.name", "user.email", "color.", "advice.", "core.quotepath",
                     "init.defaultbranch", "column.ui")  # fmt: skip

# run-new-code: installing. Cleared when every named package is declared, exactly, by a manifest
# of the installer's ecosystem (repository.declares); an install naming no package installs
# what the manifests declare. VCS/URL specs and editable installs of anything but a tracked
# folder holding a tracked manifest always open.
INSTALLS: dict[tuple[str, ...], str] = {
    **{(p, "install"): "python" for p in ("pip", "pip3", "pipenv", "pipx", "conda", "mamba")},
    ("uv", "pip", "install"): "python", ("uv", "add"): "python", ("uv", "tool", "install"): "python",
    ("poetry", "add"): "python", ("pdm", "add"): "python", ("rye", "add"): "python",
    **{(p, w): "node" for p in ("npm", "pnpm", "bun", "yarn") for w in ("install", "i", "add")},
    ("npm", "ci"): "node", ("cargo", "add"): "rust", ("cargo", "install"): "rust",
    ("go", "install"): "go", ("go", "get"): "go",
    ("gem", "install"): "ruby", ("bundle", "add"): "ruby", ("composer", "require"): "php",
    **{(p, "install"): "system" for p in ("brew", "apt", "apt-get", "dnf", "yum", "port")},
    ("apk", "add"): "system",
}  # fmt: skip
# Installer flags whose next word is a value, not a package.
VALUE_FLAGS = frozenset({"-r", "--requirement", "-c", "--constraint", "-i", "--index-url",
                         "--extra-index-url", "--registry", "--target", "-t", "--prefix",
                         "--python", "-p", "--group", "--optional", "--save-prefix", "--tag",
                         "--features", "-F", "--root", "--index", "--default-index"})  # fmt: skip
EDITABLE = ("-e", "--editable")
VCS = ("git+", "hg+", "svn+", "bzr+", "http://", "https://", "file:", "github:", "gitlab:")

# run-new-code: running a package no manifest declares (fetched on the fly when absent).
# Cleared when the package (``--package``/``--from``/``-p`` when given) is declared.
FETCH_RUNNERS: dict[tuple[str, ...], str] = {
    ("npx",): "node", ("pnpx",): "node", ("bunx",): "node", ("npm", "exec"): "node",
    ("pnpm", "dlx"): "node", ("yarn", "dlx"): "node", ("uvx",): "python",
    ("uv", "tool", "run"): "python", ("pipx", "run"): "python",
}  # fmt: skip
# uv run --with X installs X for the call.
WITH_FLAGS = ("--with", "--with-requirements", "--with-editable")

# run-new-code and new-host: downloading. Cleared when every URL's host is one the repository
# configures (repository.hosts) or the user typed.
DOWNLOADERS = frozenset({"curl", "wget", "aria2c", "http", "https", "xh", "fetch"})
CLONES = (("git", "clone"), ("gh", "repo", "clone"), ("svn", "checkout"))

# run-new-code: a program that runs a file (cleared when the file is tracked) or code it reads
# from a pipe, a heredoc or ``-c`` (never cleared: no repository defines it).
INTERPRETERS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3",
                          "node", "deno", "bun", "perl", "ruby", "php", "pwsh", "lua",
                          "Rscript", "tsx", "ts-node", "source", "."})  # fmt: skip
INLINE_FLAGS = ("-c", "-e", "--eval", "-p", "--print", "-E", "-r")
SYSTEM_DIRS = ("/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/usr/local/bin/",
               "/opt/homebrew/bin/")  # fmt: skip
# Programs installed from the manifests: cleared when the program is a declared package.
ENV_BINS = {".venv/bin/": "python", "venv/bin/": "python", "node_modules/.bin/": "node"}

# Variables. Code-loading ones open run-new-code; module-path kinds are cleared when every entry
# is a tracked folder (PYTHONPATH=src). Weakening ones open weaken-check, whatever the value.
CODE_VARIABLES = {
    "LD_PRELOAD": "preload", "LD_AUDIT": "preload", "NODE_OPTIONS": "preload",
    "JAVA_TOOL_OPTIONS": "preload", "_JAVA_OPTIONS": "preload", "PERL5OPT": "preload",
    "RUBYOPT": "preload", "PYTEST_PLUGINS": "preload", "PYTHONSTARTUP": "startup",
    "BASH_ENV": "shell-env", "ENV": "shell-env", "ZDOTDIR": "shell-env",
    "PROMPT_COMMAND": "shell-env", "PYTHONHOME": "module-path", "PYTHONPATH": "module-path",
    "NODE_PATH": "module-path", "PERL5LIB": "module-path", "RUBYLIB": "module-path",
    "CLASSPATH": "module-path", "LD_LIBRARY_PATH": "module-path", "PATH": "module-path",
    "GIT_SSH_COMMAND": "program", "GIT_SSH": "program", "GIT_EXEC_PATH": "program",
    "GIT_EDITOR": "program", "GIT_PAGER": "program", "EDITOR": "program", "VISUAL": "program",
    "PAGER": "program", "GIT_ASKPASS": "program", "SSH_ASKPASS": "program",
    "GIT_TEMPLATE_DIR": "hook-path", "GIT_CONFIG_GLOBAL": "config", "GIT_CONFIG_SYSTEM": "config",
    "GIT_CONFIG_PARAMETERS": "config", "GIT_CONFIG_COUNT": "config", "PIP_CONFIG_FILE": "config",
    "NPM_CONFIG_USERCONFIG": "config", "GOFLAGS": "config", "GOPROXY": "config",
}  # fmt: skip
CODE_VARIABLE_PREFIXES = ("DYLD_", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_", "NPM_CONFIG_",
                          "PIP_INDEX", "PIP_EXTRA_INDEX", "UV_INDEX", "UV_EXTRA_INDEX",
                          "YARN_REGISTRY", "BUNDLE_MIRROR")  # fmt: skip
# Entries of a module path that are the environment's own, not a new place.
PATH_ENTRIES_OK = ("$PATH", "${PATH}", "$PYTHONPATH", "${PYTHONPATH}", *SYSTEM_DIRS,
                   ".venv/bin", "node_modules/.bin")  # fmt: skip
WEAKENING_VARIABLES = frozenset({
    "HUSKY", "SKIP", "PRE_COMMIT_ALLOW_NO_CONFIG", "NODE_TLS_REJECT_UNAUTHORIZED",
    "PYTHONHTTPSVERIFY", "GIT_SSL_NO_VERIFY", "PIP_TRUSTED_HOST", "CURL_CA_BUNDLE",
    "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "GOINSECURE", "GONOSUMDB",
    "GONOSUMCHECK", "GOSUMDB", "PYTEST_ADDOPTS", "TSC_COMPILE_ON_ERROR", "ESLINT_NO_DEV_ERRORS",
    "LEFTHOOK",
})  # fmt: skip
# weaken-check by name: a variable or a flag whose words say "turn off" and name a check
# (SKIP_SIGNING, DISABLE_ESLINT_PLUGIN, CI_SKIP, --no-audit, --skip-tests, --ignore-certs).
WEAKENING_WORDS = frozenset({"skip", "no", "disable", "disabled", "ignore", "bypass",
                             "insecure", "unsafe", "allow", "without"})  # fmt: skip
CHECK_WORDS = frozenset({
    "verify", "verification", "check", "checks", "test", "tests", "hook", "hooks", "lint",
    "eslint", "sign", "signing", "signature", "signatures", "unsigned", "ssl", "tls", "cert",
    "certs", "certificate", "certificates", "audit", "ci", "preflight", "auth", "sandbox",
    "security", "typecheck", "types", "review", "validation", "validate", "integrity", "strict",
})  # fmt: skip
# credentials: a variable whose name ends so, or one of these, holds or picks a credential.
CREDENTIAL_VARIABLE = (
    r"(?:^|_)(?:TOKEN|SECRET|PASSWORD|PASSWD|PASS|API_?KEY|ACCESS_KEY(?:_ID)?|PRIVATE_KEY|"
    r"CREDENTIALS?|AUTH|SESSION_KEY)$"
)
CREDENTIAL_VARIABLES = frozenset({"AWS_PROFILE", "SSH_AUTH_SOCK", "GNUPGHOME", "NETRC",
                                  "GOOGLE_APPLICATION_CREDENTIALS", "KUBECONFIG",
                                  "DOCKER_CONFIG"})  # fmt: skip

# credentials: paths (read, sourced, passed or written). Env templates are cleared when tracked.
CREDENTIAL_PATH = (
    r"(?:^|/)(?:\.env(?:\.[\w.-]+)?|\.aws|\.ssh|\.gnupg|\.netrc|\.pypirc|\.git-credentials|"
    r"\.docker/config\.json|\.kube|\.vault-token|id_(?:rsa|dsa|ecdsa|ed25519)\w*|"
    r"credentials(?:\.json)?|secrets?\.(?:json|ya?ml|toml|env|txt|ini)|[\w.-]+\.(?:pem|key|p12|pfx|jks|keystore)|"
    r"\.config/gh|\.npmrc|\.yarnrc(?:\.yml)?)(?:/|$)"
)
CLEARED_WHEN_TRACKED = (".env.example", ".env.sample", ".env.template", ".env.dist",
                        ".npmrc", ".yarnrc", ".yarnrc.yml")  # fmt: skip

# destroy-publish: deleting. Cleared when every path is build output (by name) and untracked.
DELETERS = frozenset({"rm", "rmdir", "shred", "unlink", "trash"})
BUILD_OUTPUT = frozenset({"dist", "build", "out", "target", "node_modules", ".venv", "venv",
                          "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox",
                          ".nox", "coverage", "htmlcov", ".coverage", ".next", ".nuxt", ".turbo",
                          ".cache", ".parcel-cache", ".eggs", "tmp"})  # fmt: skip
# weaken-check: paths whose deletion, move or permission change disables hooks.
HOOK_PATHS = (".git/hooks", ".husky", ".pre-commit-config.yaml", "lefthook.yml")

# Plain words (prose and the user's quoted words). A phrase opens its capability unless a real
# negation governs it ("never skip the tests" asks for more checking, not less).
CHECKS = (r"tests?|test suite|suite|ci|checks?|status checks?|hooks?|pre-?commit|husky|reviews?|"
          r"code review|reviewers?|approvals?|lint(?:ing|er|s)?|type[- ]?check(?:s|ing|er)?|mypy|"
          r"verification|tls|ssl|https|certificates?|certs?|auth(?:entication)?|2fa|mfa|signing|"
          r"signatures?|gpg|pipelines?|branch protection|coverage|builds?")  # fmt: skip
WEAKEN_VERBS = (r"skip(?:s|ping|ped)?|disabl(?:e|es|ing|ed)|bypass(?:es|ing|ed)?|"
                r"ignor(?:e|es|ing|ed)|turn(?:s|ing)? off|switch(?:es|ing)? off|silenc(?:e|ing)|"
                r"suppress(?:es|ing)?|comment(?:s|ing)? out|get(?:ting)? around|"
                r"work(?:ing)? around|circumvent(?:s|ing)?|dodg(?:e|ing)")  # fmt: skip
NEEDLESS = (r"no need (?:to|for)|not (?:necessary|needed|required) to|needn't|unnecessary to|"
            r"(?:do not|don't|dont|never) (?:bother (?:to|with)|need to|wait(?: for| on)?|run)|"
            r"without (?:running|waiting (?:for|on)|passing)|no longer (?:run|wait)")  # fmt: skip
NARROWING = r"only (?:run|use|do|wait for|check)"
NARROW_WORDS = r"fast|quick|unit|smoke|changed|affected|relevant|some|a few|one|cheap|short"
DESTROY_WORDS = (r"force[- ]?push(?:es|ing|ed)?|rewrit(?:e|ing) (?:the )?history|"
                 r"deploy(?:s|ing)? to (?:prod\w*|staging|live)|publish(?:es|ing)? (?:to|the)|"
                 r"(?:delete|drop)(?:s|ping)? the (?:database|db|branch|repo\w*|table)")  # fmt: skip
CREDENTIAL_WORDS = (r"api[ -]?keys?|access tokens?|auth tokens?|secret keys?|private keys?|"
                    r"ssh keys?|passwords?|keychain|credentials")  # fmt: skip
# weaken-check: markers in a commit message that tell CI not to run.
CI_SKIP_MARKERS = ("[skip ci]", "[ci skip]", "[no ci]", "[skip actions]", "[actions skip]",
                   "***no_ci***", "skip-checks: true", "skip-checks:true")  # fmt: skip

# new-host: images. Cleared when a tracked Dockerfile or compose file names the image.
IMAGE_RUNNERS = {("docker", "run"), ("docker", "pull"), ("docker", "create"), ("podman", "run"),
                 ("podman", "pull"), ("podman", "create")}  # fmt: skip
IMAGE_VALUE_FLAGS = frozenset({"-v", "--volume", "-e", "--env", "-p", "--publish", "--name",
                               "-w", "--workdir", "--network", "--entrypoint", "-u", "--user",
                               "--env-file", "--platform", "-l", "--label", "--mount",
                               "--add-host", "-h", "--hostname"})  # fmt: skip
