<?php
// fpm.php: the PHP-FPM peer of the cgigate benchmarks (Debian package
// php-fpm, PHP 8.2), run by the bench's own pool behind mod_proxy_fcgi, the
// persistent FastCGI stack most sites have. Same job as floor.c: decode the
// form fields "q" and "lang" of a GET and print them escaped, as HTML, or as
// JSON when HTTP_ACCEPT names application/json.
$fields = [];
foreach (['q', 'lang'] as $name) {
    if (isset($_GET[$name]) && is_string($_GET[$name])) {
        $fields[] = ['name' => $name, 'value' => $_GET[$name]];
    }
}
if (str_contains($_SERVER['HTTP_ACCEPT'] ?? '', 'application/json')) {
    header('Content-Type: application/json; charset=utf-8');
    // Values are UTF-8; JSON_UNESCAPED_UNICODE keeps them as they are,
    // like the other peers.
    echo json_encode(['kind' => 'form', 'fields' => $fields], JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
    exit;
}
header('Content-Type: text/html; charset=utf-8');
echo "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>form</title></head>\n",
    "<body>\n<h1>form</h1>\n<table class=\"fields\"><tr><th>name</th><th>value</th></tr>\n";
foreach ($fields as $f) {
    echo '<tr><td>', $f['name'], '</td><td>', htmlspecialchars($f['value'], ENT_QUOTES | ENT_HTML5, 'UTF-8'), "</td></tr>\n";
}
echo "</table>\n</body></html>\n";
