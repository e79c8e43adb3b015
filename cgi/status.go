package cgi

// The statuses the gateway answers with (RFC 9110 § 15), with net/http's
// names and values; the package does not link net/http (see Handler).
const (
	StatusOK                    = 200
	StatusSeeOther              = 303
	StatusBadRequest            = 400
	StatusForbidden             = 403
	StatusNotFound              = 404
	StatusMethodNotAllowed      = 405
	StatusRequestTimeout        = 408
	StatusRequestEntityTooLarge = 413
	StatusRequestURITooLong     = 414
	StatusUnsupportedMediaType  = 415
	StatusUnprocessableEntity   = 422
	// StatusRequestHeaderFieldsTooLarge is RFC 6585 § 5.
	StatusRequestHeaderFieldsTooLarge = 431
	StatusInternalServerError         = 500
	StatusServiceUnavailable          = 503
)

// StatusText is the reason phrase of a status (RFC 9110 § 15), as the CGI
// Status header carries it (RFC 3875 § 6.3.3), for the statuses above and
// the rest of their class by its name in RFC 9110 § 15.
func StatusText(status int) string {
	switch status {
	case StatusOK:
		return "OK"
	case StatusSeeOther:
		return "See Other"
	case StatusBadRequest:
		return "Bad Request"
	case StatusForbidden:
		return "Forbidden"
	case StatusNotFound:
		return "Not Found"
	case StatusUnprocessableEntity:
		return "Unprocessable Entity"
	case StatusMethodNotAllowed:
		return "Method Not Allowed"
	case StatusRequestTimeout:
		return "Request Timeout"
	case StatusRequestEntityTooLarge:
		return "Request Entity Too Large"
	case StatusRequestURITooLong:
		return "Request URI Too Long"
	case StatusUnsupportedMediaType:
		return "Unsupported Media Type"
	case StatusRequestHeaderFieldsTooLarge:
		return "Request Header Fields Too Large"
	case StatusInternalServerError:
		return "Internal Server Error"
	case StatusServiceUnavailable:
		return "Service Unavailable"
	}
	switch status / 100 {
	case 1:
		return "Informational"
	case 2:
		return "Successful"
	case 3:
		return "Redirection"
	case 4:
		return "Client Error"
	}
	return "Server Error"
}
