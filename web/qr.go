package web

import (
	"net/http"
	"unicode/utf8"

	"fray"
	"fray/qr"
)

// qrRequest is the body of POST /api/qr.
type qrRequest struct {
	Text  string `json:"text"`
	Title string `json:"title"`
}

// qrCode answers POST /api/qr with the QR code of the text as an SVG
// image: the page shows player links and the GM link as codes a phone
// opens. The text travels in the body, never in an address, since a link
// carries its token; the server keeps nothing of it.
func (s *Server) qrCode(w http.ResponseWriter, r *http.Request) {
	if err := s.allowAddress(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	var req qrRequest
	if err := decodeBody(w, r, s.cfg.Limits.MaxBody, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	switch {
	case req.Text == "":
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "The text is missing: send {\"text\":\"https://…\"}."))
		return
	case len(req.Text) > qr.MaxText:
		s.writeError(w, r, fray.Errorf(fray.ETOOLARGE, "The text is %d bytes; a QR code here holds at most %d (qr.MaxText).", len(req.Text), qr.MaxText))
		return
	case !utf8.ValidString(req.Text) || !utf8.ValidString(req.Title) || len(req.Title) > fray.MaxNameLen*2:
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "The text and title must be UTF-8, the title at most %d bytes.", fray.MaxNameLen*2))
		return
	}
	code, err := qr.Encode(req.Text)
	if err != nil {
		s.writeError(w, r, fray.Errorf(fray.EINVALID, "%v", err))
		return
	}
	title := req.Title
	if title == "" {
		title = "QR code"
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write([]byte(code.SVG(title)))
}
