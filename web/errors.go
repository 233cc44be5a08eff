package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"fray"
)

// Error codes of the HTTP interface besides fray's own. They are wire
// strings: never rename one.
const (
	EUNAUTHORIZED = "unauthorized" // no token, or a token the server does not know (401)
	ERATELIMITED  = "rate_limited" // too many requests for one token (429)
	EBUSY         = "busy"         // the server's workers are all taken and its queue full (503)
	ESTORAGEFULL  = "storage_full" // the store has no room left: a full disk or a stored-bytes budget (507)
)

// Status returns the HTTP status for an error code: the one place codes
// become statuses.
func Status(code string) int {
	switch code {
	case fray.EINVALID:
		return http.StatusBadRequest
	case fray.ENOTFOUND:
		return http.StatusNotFound
	case fray.ECONFLICT:
		return http.StatusConflict
	case fray.EFORBIDDEN:
		return http.StatusForbidden
	case fray.ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	case EUNAUTHORIZED:
		return http.StatusUnauthorized
	case ERATELIMITED:
		return http.StatusTooManyRequests
	case EBUSY:
		return http.StatusServiceUnavailable
	case ESTORAGEFULL:
		return http.StatusInsufficientStorage
	case "":
		return http.StatusOK
	default:
		return http.StatusInternalServerError
	}
}

// errorBody is the JSON of every refusal. Its field names are wire strings.
type errorBody struct {
	Error errorDetail `json:"error"`
	// Revision is the encounter's current revision, on a 409 for a
	// stale one.
	Revision *int `json:"revision,omitempty"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// retryError is the cause of an ERATELIMITED or EBUSY error: when to try
// again (the Retry-After header).
type retryError struct{ after time.Duration }

func (e *retryError) Error() string { return "retry after " + e.after.String() }

// writeError answers with err: its code's status and its message; an
// internal error's cause goes to the log, never to the caller.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code := fray.ErrorCode(err)
	status := Status(code)
	if status == http.StatusInternalServerError {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	body := errorBody{Error: errorDetail{Code: code, Message: fray.ErrorMessage(err)}}
	if rev, ok := fray.CurrentRevision(err); ok && code == fray.ECONFLICT {
		body.Revision = &rev
	}
	var re *retryError
	if errors.As(err, &re) {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int((re.after+time.Second-1)/time.Second))))
	}
	if code == EUNAUTHORIZED {
		w.Header().Set("WWW-Authenticate", `Bearer realm="fray"`)
	}
	writeJSON(w, status, body)
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":{"code":"internal","message":"The answer could not be encoded."}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// decodeBody reads the JSON request body into v, at most limit bytes,
// refusing unknown fields and anything after the value.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return bodyError(err, limit)
	}
	if dec.More() {
		return fray.Errorf(fray.EINVALID, "The request body holds more than one JSON value.")
	}
	if _, err := dec.Token(); err == nil {
		return fray.Errorf(fray.EINVALID, "The request body holds more than one JSON value.")
	} else if !errors.Is(err, io.EOF) {
		return bodyError(err, limit)
	}
	return nil
}

// bodyError turns a failure to read or decode a body into a user's error.
func bodyError(err error, limit int64) error {
	var mbe *http.MaxBytesError
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &mbe):
		return &fray.Error{Code: fray.ETOOLARGE, Message: "The request body is larger than " + strconv.FormatInt(limit, 10) + " bytes (MaxBody).", Err: err}
	case errors.Is(err, io.EOF):
		return fray.Errorf(fray.EINVALID, "The request body is empty; it must be a JSON object.")
	case errors.As(err, &se):
		return &fray.Error{Code: fray.EINVALID, Message: "The request body is not valid JSON (at byte " + strconv.FormatInt(se.Offset, 10) + ").", Err: err}
	case errors.As(err, &te):
		return &fray.Error{Code: fray.EINVALID, Message: "The field " + strconv.Quote(te.Field) + " has the wrong type; it must be " + te.Type.String() + ".", Err: err}
	default:
		return &fray.Error{Code: fray.EINVALID, Message: "The request body is not the JSON object expected: " + err.Error() + ".", Err: err}
	}
}
