"""Acceptance profiles (docs/acceptance.md): a TOML file of checks, each a program run as a
user types it, judged against a threshold; `effbench-results accept PROFILE` runs them, stores
every run and writes the verdict as text, JUnit XML and in the HTML report.

profile: the file and its schema (mistakes named by file and line); metrics: the value a run
gives a check and who to blame; verdict: the judgement, its text; junit: the XML; runner: the
launches, time budgets, the state file that `--resume` continues."""
