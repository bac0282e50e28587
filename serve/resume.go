package serve

// Resume sets the task Serve starts as soon as it serves (Config.Resume):
// thea serve --resume gives the checkpoint's instruction, and its session
// continues the unfinished task. Call it before Serve.
func (s *Server) Resume(instruction string) { s.cfg.Resume = instruction }
