package engine

import "fray"

// protos returns the zero values of the payload types of the events of
// the engine's system, by event type, the shared ones included: what
// preload decodes each event's payload into.
func (e *Engine) protos() map[string]any {
	if e.payloads == nil {
		e.payloads = map[string]any{fray.EventSet: fray.SetData{}, fray.EventUndo: fray.StepData{}, fray.EventRedo: fray.StepData{}}
		for k, v := range sharedPayloads {
			e.payloads[k] = v
		}
		if p, ok := e.sys.(Payloads); ok {
			for k, v := range p.Payloads() {
				e.payloads[k] = v
			}
		}
	}
	return e.payloads
}

// preload decodes the payload of an event read back from a log or a
// store once, into the type its system declares for it (fray.Event.Preload),
// so that applying it again and again never decodes JSON.
func (e *Engine) preload(ev *fray.Event) error {
	if proto, ok := e.protos()[ev.Type]; ok {
		return ev.Preload(proto)
	}
	return nil
}
