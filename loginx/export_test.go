package loginx

// SigningKeyOf is the key s signs session tokens with, for tests that look
// for it in the database.
func SigningKeyOf(s *Service) []byte { return s.tokens.key }
