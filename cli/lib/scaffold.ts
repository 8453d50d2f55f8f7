// What `formdown init` writes into a forms-only repository: the server lives elsewhere, this
// repository holds the form files, the two workflows that check and deploy them, and the CLI
// itself as one file (`.formdown/formdown.mjs`, served by the server): a runner needs only Node.

export const EXAMPLE_FORM = (handler: string) => `---
# yaml-language-server: $schema=../../formdown.schema.json
title: Hello
slug: hello
fields:
  - id: name
    type: text
    label: Your name
    required: true
  - id: rating
    type: rating
    label: How is your day?
---

Edit this file, run \`node .formdown/formdown.mjs validate\`, then
\`node .formdown/formdown.mjs deploy forms/@${handler}/hello.md\`.
`;

// no install step: the vendored CLI is one file that runs on the runner's Node (>= 20)
const SETUP = `      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-node@v4
        with:
          node-version: 20`;

export const VALIDATE_WORKFLOW = `name: Validate forms

# On every pull request that touches a form: the checks deploy would apply and the forms' logic
# tests, with file:line messages.
# With the FORMDOWN_URL/FORMDOWN_READ_KEY secrets, also the plan of what merging would change on the
# server: in the job summary and one comment that later pushes update; a destructive plan fails
# the check until the pull request carries the label formdown:confirm.
#
# A pull request's own code never runs where a secret is: \`validate\` runs the pull request's CLI
# with no secret; \`plan\` holds a read-only key (\`formdown keys create --scope read\`) and runs
# the CLI committed on the base branch, reading the pull request's form files as data.
on:
  pull_request:
    types: [opened, synchronize, reopened, labeled, unlabeled]
    paths: ["forms/**"]

permissions:
  contents: read

jobs:
  validate:
    runs-on: ubuntu-latest
    steps:
${SETUP}
      - run: node .formdown/formdown.mjs validate
      # the forms' logic tests (tests: or <slug>.test.yaml), offline; a failing case at file:line
      - run: node .formdown/formdown.mjs test

  plan:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      pull-requests: write
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
          persist-credentials: false
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - name: Plan the changed forms against the server
        env:
          FORMDOWN_URL: \${{ secrets.FORMDOWN_URL }}
          FORMDOWN_API_KEY: \${{ secrets.FORMDOWN_READ_KEY }}
          GITHUB_TOKEN: \${{ github.token }}
          BASE: \${{ github.event.pull_request.base.sha }}
        run: |
          if [ -z "$FORMDOWN_URL" ] || [ -z "$FORMDOWN_API_KEY" ]; then
            echo "No FORMDOWN_URL/FORMDOWN_READ_KEY secrets: no plan."; exit 0
          fi
          # the CLI as the base branch has it, outside the checkout
          cli="$RUNNER_TEMP/formdown.mjs"
          if ! git show "$BASE:.formdown/formdown.mjs" > "$cli"; then
            echo "The base branch has no .formdown/formdown.mjs yet: no plan."; exit 0
          fi
          mapfile -d '' -t files < <(git diff -z --name-only --diff-filter=AMR "$BASE" HEAD -- 'forms/**/*.md')
          if [ "\${#files[@]}" -eq 0 ]; then echo "No form files changed."; exit 0; fi
          node "$cli" plan --json "\${files[@]}" > "$RUNNER_TEMP/plan.json"
          # the logic tests beside the plan (the validate job fails on them; here they are shown)
          node "$cli" test --json > "$RUNNER_TEMP/tests.json" || true
          node "$cli" plan-comment "$RUNNER_TEMP/plan.json" --tests "$RUNNER_TEMP/tests.json"
`;

/** The deploy workflow, on pushes to the repository's own default branch. */
export const deployWorkflow = (branch = "main") => `name: Deploy forms

# On every merge to ${branch}: the server is reconciled with the form files (added and changed ones
# made live, renamed ones moved, removed ones closed). A file that did not change changes nothing.
on:
  push:
    branches: [${JSON.stringify(branch)}]
    paths: ["forms/**"]
  workflow_dispatch:

concurrency:
  group: formdown-deploy
  cancel-in-progress: false

permissions:
  contents: read

jobs:
  deploy:
    runs-on: ubuntu-latest
    env:
      FORMDOWN_URL: \${{ secrets.FORMDOWN_URL }}
      FORMDOWN_API_KEY: \${{ secrets.FORMDOWN_API_KEY }}
    steps:
${SETUP}
      # renamed files move their form (the old URL redirects), removed files close it; --check
      # then asks /api/health and each deployed form's page, and fails the run if one does not answer
      - run: node .formdown/formdown.mjs deploy --since "\${{ github.event.before }}" --check
`;

// scripts only: nothing to install
export const PACKAGE_JSON = `{
  "private": true,
  "scripts": {
    "validate": "node .formdown/formdown.mjs validate",
    "test": "node .formdown/formdown.mjs test",
    "deploy": "node .formdown/formdown.mjs deploy"
  }
}
`;

export const GITIGNORE = `node_modules/
.env
# a local server's data, should one run here; the vendored CLI is committed
.formdown/*
!.formdown/formdown.mjs
`;

export const README_SNIPPET = `## Forms

The forms of this repository live in \`forms/@<handler>/<slug>.md\` (one Markdown file per form,
YAML header then text) and are served by a Formdown server.

The command line is vendored: \`.formdown/formdown.mjs\` is the whole \`formdown\` CLI in one
file, run with plain \`node\` (20 or later) — nothing to install, here or on CI.

- \`node .formdown/formdown.mjs validate\` checks every form file (no server needed).
- \`node .formdown/formdown.mjs deploy\` makes them live; set \`FORMDOWN_URL\` and \`FORMDOWN_API_KEY\`
  (or run \`node .formdown/formdown.mjs login --url … --key …\` once).
- \`node .formdown/formdown.mjs self-update --url https://your-server\` replaces the wrapper with
  the CLI of the server's version (then commit \`.formdown/formdown.mjs\`).
- Pull requests run \`.github/workflows/formdown-validate.yml\` (repository secrets \`FORMDOWN_URL\`
  and \`FORMDOWN_READ_KEY\`, a key made with \`formdown keys create --scope read\`: it plans with the
  CLI of the base branch, never the pull request's); merges to main run
  \`.github/workflows/formdown-deploy.yml\` (secrets \`FORMDOWN_URL\`, \`FORMDOWN_API_KEY\`).
- Editors with the YAML language server complete and check the header through
  \`formdown.schema.json\` (the first comment line of each form names it).
`;
