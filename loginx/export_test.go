package loginx

// SigningKeyOf is the key s signs session tokens with, for tests that look
// for it in the database.
func SigningKeyOf(s *Service) []byte { return s.tokens.key }

// SessionReadsOf counts the sessions s has read from the store (memory
// misses), for tests that check what a request costs.
func SessionReadsOf(s *Service) int64 { return s.sessions.miss.Load() }
