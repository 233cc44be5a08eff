package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"fray"
	"fray/engine"
)

// Error codes of the HTTP interface besides fray's own. They are wire
// strings: never rename one.
const (
	EUNAUTHORIZED = "unauthorized"       // no token, or a token the server does not know (401)
	ERATELIMITED  = "rate_limited"       // too many requests for one token (429)
	EBUSY         = "busy"               // the server's workers are all taken and its queue full (503)
	ESTORAGEFULL  = "storage_full"       // the store has no room left: a full disk or a stored-bytes budget (507)
	EMETHOD       = "method_not_allowed" // the path exists but not with this method; Allow lists those it has (405)
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
	case EMETHOD:
		return http.StatusMethodNotAllowed
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

// writeError answers with err: its code's status and its message; the
// cause of an internal error or of a full store goes to the log, never
// to the caller.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code := fray.ErrorCode(err)
	status := Status(code)
	if status == http.StatusInternalServerError || status == http.StatusInsufficientStorage {
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

// routerError stands between the mux and the client when no route
// matches, and answers the mux's plain-text refusals in the JSON envelope:
// 404 for an unknown path, 405 for a known path with another method (the
// mux's Allow header kept). Anything else (a redirect to the cleaned path)
// passes through. The static file server's 404 goes through it too.
type routerError struct {
	http.ResponseWriter
	s    *Server
	r    *http.Request
	done bool // the envelope is written: drop the mux's text
}

func (e *routerError) WriteHeader(status int) {
	if e.done {
		return
	}
	path := strconv.Quote(engine.Clip(e.r.URL.Path))
	switch {
	case status == http.StatusNotFound && strings.HasPrefix(e.r.URL.Path, "/api/"):
		e.refuse(fray.Errorf(fray.ENOTFOUND, "The API has no endpoint %s; /api/openapi.json lists them.", path))
	case status == http.StatusNotFound:
		e.refuse(fray.Errorf(fray.ENOTFOUND, "There is no page %s.", path))
	case status == http.StatusMethodNotAllowed:
		e.refuse(fray.Errorf(EMETHOD, "The method %s is not allowed on %s; use %s (as the Allow header says).",
			engine.Clip(e.r.Method), path, e.Header().Get("Allow")))
	default:
		e.ResponseWriter.WriteHeader(status)
	}
}

// refuse writes the envelope in place of the mux's answer.
func (e *routerError) refuse(err error) {
	e.done = true
	e.s.writeError(e.ResponseWriter, e.r, err)
}

func (e *routerError) Write(p []byte) (int, error) {
	if e.done {
		return len(p), nil
	}
	return e.ResponseWriter.Write(p)
}

// Unwrap returns the writer underneath, for http.ResponseController.
func (e *routerError) Unwrap() http.ResponseWriter { return e.ResponseWriter }

// abortStream ends an answer already under way (a 200 whose body is being
// streamed) that cannot be finished: it writes err as a last line in the
// JSON envelope, flushes it, and aborts the handler, so that the server
// breaks the body off (no last chunk in HTTP/1.1, a reset stream in
// HTTP/2) and a client sees a failed transfer, not a short one. The cause
// goes to the log. It does not return.
func (s *Server) abortStream(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("request failed part-way", "method", r.Method, "path", r.URL.Path, "err", err)
	b, _ := json.Marshal(errorBody{Error: errorDetail{Code: fray.ErrorCode(err), Message: fray.ErrorMessage(err)}})
	w.Write(append(b, '\n'))
	http.NewResponseController(w).Flush()
	panic(http.ErrAbortHandler)
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
// refusing unknown fields, anything after the value and bytes that are
// not UTF-8 (which encoding/json would silently turn into U+FFFD).
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		return bodyError(err, limit)
	}
	bad := invalidUTF8(data)
	if bad >= 0 {
		if err := utf8Error(data, bad); err != nil {
			return err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
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
	if bad >= 0 {
		// Not reached: bytes that are not UTF-8 outside a string are a
		// syntax error, found above.
		return fray.Errorf(fray.EINVALID, "The request body is not valid UTF-8 (at byte %d).", bad+1)
	}
	return nil
}

// invalidUTF8 returns the offset of the first byte of b that is not part
// of a UTF-8 character, or -1 when b is valid UTF-8.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		c, n := utf8.DecodeRune(b[i:])
		if c == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// utf8Error names the field whose string holds the byte at offset bad,
// which is not UTF-8: "args[1]", "options.target". Its byte is counted
// from 1, as a syntax error's is. It returns nil when the byte is in no
// string, which is then a syntax error for the decoder to report.
func utf8Error(data []byte, bad int) error {
	at := int64(bad)
	// frame is an object or an array being read; key is the object's
	// field being read, n the array's element or the object's fields so
	// far.
	type frame struct {
		object bool
		key    string
		n      int
	}
	var stack []frame
	path := func() string {
		var b strings.Builder
		for _, f := range stack {
			switch {
			case !f.object:
				b.WriteString("[" + strconv.Itoa(f.n) + "]")
			case b.Len() > 0:
				b.WriteString("." + f.key)
			default:
				b.WriteString(f.key)
			}
		}
		return b.String()
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		top := len(stack) - 1
		isKey := top >= 0 && stack[top].object && stack[top].n%2 == 0
		if str, ok := tok.(string); ok && start <= at && at < dec.InputOffset() {
			// The token's bytes, from the end of the one before, hold only
			// ASCII besides the string: the byte is in it.
			switch field := path(); {
			case isKey:
				return fray.Errorf(fray.EINVALID, "A field name in the request body is not valid UTF-8 (at byte %d).", bad+1)
			case field == "":
				return fray.Errorf(fray.EINVALID, "The request body is not valid UTF-8 (at byte %d).", bad+1)
			default:
				return fray.Errorf(fray.EINVALID, "The field %s is not valid UTF-8 (at byte %d).", strconv.Quote(engine.Clip(field)), bad+1)
			}
		} else if ok && isKey {
			stack[top].key = str
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, frame{object: tok == json.Delim('{')})
			continue // the value is under way; its container counts it at its end
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:top]
			top--
		}
		if top >= 0 {
			stack[top].n++ // an element, a key, or the value after a key
		}
	}
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
