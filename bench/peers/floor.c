/* floor.c: the C floor of the cgigate benchmarks.
 *
 * The least a CGI program can do for the benchmark's job: read QUERY_STRING
 * (RFC 3875 section 4.1.7), split it into application/x-www-form-urlencoded
 * pairs (WHATWG URL, section 5.1), decode the fields "q" and "lang" and print
 * them escaped, as HTML, or as JSON when HTTP_ACCEPT names application/json.
 * No library beyond libc; compiled with gcc -O2 by cgibench at bench time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXQ 16384

static int hexval(int c) {
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

/* decode percent-decodes s[0:n] in place ('+' is a space) and returns the new length. */
static size_t decode(char *s, size_t n) {
	size_t i, o = 0;
	for (i = 0; i < n; i++) {
		int h, l;
		if (s[i] == '+') {
			s[o++] = ' ';
		} else if (s[i] == '%' && i + 2 < n && (h = hexval((unsigned char)s[i + 1])) >= 0 && (l = hexval((unsigned char)s[i + 2])) >= 0) {
			s[o++] = (char)(h << 4 | l);
			i += 2;
		} else {
			s[o++] = s[i];
		}
	}
	return o;
}

static void html(const char *s, size_t n) {
	size_t i;
	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", stdout); break;
		case '<': fputs("&lt;", stdout); break;
		case '>': fputs("&gt;", stdout); break;
		case '"': fputs("&#34;", stdout); break;
		case '\'': fputs("&#39;", stdout); break;
		default: putchar(s[i]);
		}
	}
}

static void json(const char *s, size_t n) {
	size_t i;
	putchar('"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			putchar('\\');
			putchar(c);
		} else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
			printf("\\u%04x", c);
		} else {
			putchar(c);
		}
	}
	putchar('"');
}

struct field {
	const char *name;
	char *value;
	size_t len;
	int set;
};

int main(void) {
	static char buf[MAXQ];
	struct field f[2] = {{"q", 0, 0, 0}, {"lang", 0, 0, 0}};
	const char *qs = getenv("QUERY_STRING");
	const char *accept = getenv("HTTP_ACCEPT");
	int asJSON = accept && strstr(accept, "application/json");
	size_t n, i;
	char *p, *end;

	if (!qs) qs = "";
	n = strlen(qs);
	if (n >= MAXQ) {
		fputs("Status: 414 URI Too Long\nContent-Type: text/plain\n\ntoo long\n", stdout);
		return 0;
	}
	memcpy(buf, qs, n + 1);
	for (p = buf; p < buf + n; p = end + 1) {
		char *eq;
		size_t klen;
		end = strchr(p, '&');
		if (!end) end = buf + n;
		eq = memchr(p, '=', (size_t)(end - p));
		klen = decode(p, (size_t)((eq ? eq : end) - p));
		for (i = 0; i < 2; i++) {
			if (!f[i].set && klen == strlen(f[i].name) && memcmp(p, f[i].name, klen) == 0) {
				f[i].set = 1;
				f[i].value = eq ? eq + 1 : end;
				f[i].len = eq ? decode(eq + 1, (size_t)(end - eq - 1)) : 0;
			}
		}
	}

	if (asJSON) {
		int first = 1;
		fputs("Content-Type: application/json; charset=utf-8\n\n{\"kind\":\"form\",\"fields\":[", stdout);
		for (i = 0; i < 2; i++) {
			if (!f[i].set) continue;
			printf("%s{\"name\":\"%s\",\"value\":", first ? "" : ",", f[i].name);
			json(f[i].value, f[i].len);
			putchar('}');
			first = 0;
		}
		fputs("]}\n", stdout);
		return 0;
	}
	fputs("Content-Type: text/html; charset=utf-8\n\n"
	      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>form</title></head>\n"
	      "<body>\n<h1>form</h1>\n<table class=\"fields\"><tr><th>name</th><th>value</th></tr>\n", stdout);
	for (i = 0; i < 2; i++) {
		if (!f[i].set) continue;
		printf("<tr><td>%s</td><td>", f[i].name);
		html(f[i].value, f[i].len);
		fputs("</td></tr>\n", stdout);
	}
	fputs("</table>\n</body></html>\n", stdout);
	return 0;
}
