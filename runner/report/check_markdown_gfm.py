#!/usr/bin/env python3
"""Renders the hostile sample report as Markdown (`arcs report --markdown`) and hands it to an
independent GitHub-flavoured Markdown parser, cmark-gfm with its table and autolink extensions,
to check that no untrusted string became markup: no link, no e-mail link, no raw HTML other than
the <br> the renderer writes itself, and no @mention GitHub would notify (an '@' directly followed
by a letter or digit in the rendered text).

Other renderings of hostile text (the fuzz report's, runner/fuzz/fuzz_render_test.cc) are checked
the same way: given "-", the Markdown is read from standard input instead.

usage: check_markdown_gfm.py ARCS_REPORT_SAMPLE ARCS
       check_markdown_gfm.py -
"""
import html
import re
import shutil
import subprocess
import sys
import tempfile

ALLOWED_TAGS = {"h1", "h2", "h3", "p", "ul", "li", "table", "thead", "tbody", "tr", "th", "td",
                "br", "strong", "em", "code"}


def sample_markdown(sample_binary, arcs):
    with tempfile.NamedTemporaryFile("wb", suffix=".json") as report:
        report.write(subprocess.run([sample_binary], check=True, capture_output=True).stdout)
        report.flush()
        return subprocess.run([arcs, "report", report.name, "--markdown"], check=True,
                              capture_output=True).stdout


def main():
    cmark = shutil.which("cmark-gfm")
    if cmark is None:
        sys.exit("check_markdown_gfm: cmark-gfm is missing (tools/setup.sh installs it)")
    if sys.argv[1:] == ["-"]:
        markdown = sys.stdin.buffer.read()
    else:
        markdown = sample_markdown(sys.argv[1], sys.argv[2])
    rendered = subprocess.run([cmark, "--unsafe", "-e", "table", "-e", "autolink",
                               "-e", "strikethrough"], input=markdown, check=True,
                              capture_output=True).stdout.decode("utf-8")
    problems = []
    for tag in sorted(set(re.findall(r"<\s*/?\s*([A-Za-z][A-Za-z0-9-]*)", rendered))):
        if tag.lower() not in ALLOWED_TAGS:
            problems.append(f"markup <{tag}> in the rendered report")
    if "href=" in rendered:
        problems.append("a link in the rendered report: " +
                        re.search(r"<a [^>]*>", rendered).group(0))
    text = html.unescape(re.sub(r"<[^>]*>", " ", rendered))
    for mention in re.findall(r"(?:^|[^\w])@[A-Za-z0-9]", text):
        problems.append(f"an @mention in the rendered text: {mention!r}")
    if "octocat" not in text or "evil.example" not in text:
        problems.append("the hostile text itself is gone (it must stay, inert)")
    for p in problems:
        print("check_markdown_gfm:", p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
