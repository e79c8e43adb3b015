#!/usr/bin/python3
"""fieldstorage.py: the Python cgi.FieldStorage peer of the cgigate benchmarks.

Same job as floor.c: decode the form fields "q" and "lang" of a GET and print
them escaped, as HTML, or as JSON when HTTP_ACCEPT names application/json.
Run by Debian's /usr/bin/python3 (3.11, the last minor with the cgi module;
package python3-minimal), which Apache's www-data children can reach.
"""
import warnings

# cgi is deprecated since 3.11 (PEP 594); the warning would cost a line in
# Apache's error log per request.
warnings.filterwarnings("ignore", category=DeprecationWarning)

import cgi  # noqa: E402
import html  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402

form = cgi.FieldStorage()
fields = [(n, form.getfirst(n)) for n in ("q", "lang") if n in form]
out = sys.stdout.buffer
if "application/json" in os.environ.get("HTTP_ACCEPT", ""):
    import json

    body = json.dumps({"kind": "form", "fields": [{"name": n, "value": v} for n, v in fields]}, ensure_ascii=False)
    out.write(b"Content-Type: application/json; charset=utf-8\r\n\r\n" + body.encode("utf-8", "surrogateescape") + b"\n")
    sys.exit(0)
page = [
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>form</title></head>\n',
    '<body>\n<h1>form</h1>\n<table class="fields"><tr><th>name</th><th>value</th></tr>\n',
]
for n, v in fields:
    page.append("<tr><td>%s</td><td>%s</td></tr>\n" % (n, html.escape(v)))
page.append("</table>\n</body></html>\n")
out.write(b"Content-Type: text/html; charset=utf-8\r\n\r\n" + "".join(page).encode("utf-8", "surrogateescape"))
