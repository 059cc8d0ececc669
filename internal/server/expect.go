package server

import (
	"errors"
	"net/http"

	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/sandbox/expect"
)

// expect answers POST (or GET with a body) /v1/sessions/{id}/expect. A
// session without calls is an empty trace, so that "no calls" can be
// asserted too.
func (s *Server) expect(r *http.Request) (any, error) {
	id, err := sessionID(r)
	if err != nil {
		return nil, err
	}
	if err := requireJSON(r); err != nil {
		return nil, err
	}
	e, err := expect.Decode(r.Body)
	if err != nil {
		return nil, expectationProblem(err)
	}
	if err := e.Validate(s.engine.Catalog()); err != nil {
		return nil, expectationProblem(err)
	}
	t, ok, err := s.engine.SessionContext(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if !ok {
		t = sandbox.SessionTrace{ID: id}
	}
	return e.Check(s.engine.Catalog(), t), nil
}

func expectationProblem(err error) error {
	var ee *expect.Error
	if errors.As(err, &ee) {
		return newProblem(http.StatusBadRequest, "malformed-expectation", "Malformed expectation", err.Error())
	}
	return err // a body over the limit: 413
}

// resetSession answers DELETE /v1/sessions/{id}: the session's trace,
// dependency memory and stand-in state are forgotten (204), so that the
// next test case starts from nothing.
func (s *Server) resetSession(r *http.Request) (any, error) {
	id, err := sessionID(r)
	if err != nil {
		return nil, err
	}
	if !s.engine.Reset(id) {
		return nil, unknownSession(id)
	}
	return &rawBody{status: http.StatusNoContent}, nil
}
