package sim

// Policy is a scheduling policy. The engine calls the notification methods
// for each event of an instant (completions, ends of overheads, arrivals,
// timers, in that order) and then Schedule once. A policy acts only through
// the [Machine] it was given in Init; it must never block.
type Policy interface {
	// Init is called once before the first event. It returns an error when
	// the policy cannot run on this machine.
	Init(m *Machine) error
	// Arrive tells the policy that t has arrived and is Waiting.
	Arrive(t *Task)
	// Finish tells the policy that t has completed; its processors are free.
	Finish(t *Task)
	// Timer tells the policy that a timer it set has fired.
	Timer(tag int)
	// Schedule is called once per instant after all its events were
	// applied; here the policy starts, suspends, resumes or kills jobs.
	Schedule()
}

// OverheadWatcher is implemented by policies that want to hear when a
// suspend or resume overhead ends (the job is then Suspended or Running).
type OverheadWatcher interface {
	OverheadDone(t *Task)
}

// ErrorAnnotator is implemented by policies that add context to the error
// of a [Machine] call the engine refused (the external policy adds the
// message it was applying and the policy process's standard error). The
// engine calls it for the first refused call (and for [Machine.Check]),
// instead of prefixing the error with the instant: the annotated error
// must name the instant itself, or be err unchanged with the instant
// already in it.
type ErrorAnnotator interface {
	AnnotateError(err error) error
}
