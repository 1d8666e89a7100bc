package authz

import (
	"strings"
	"testing"
)

func TestLoginAttemptsSetting(t *testing.T) {
	for v, want := range map[string]int{"": 0, "12": 12, "0": -1} {
		c, err := ConfigFromLookup(lookup(map[string]string{"AUTH_LOGIN_ATTEMPTS_PER_MINUTE": v}))
		if err != nil || c.LoginAttemptsPerMinute != want {
			t.Errorf("AUTH_LOGIN_ATTEMPTS_PER_MINUTE=%q: %d %v, want %d", v, c.LoginAttemptsPerMinute, err, want)
		}
	}
	for _, v := range []string{"-3", "many", "2000000"} {
		_, err := ConfigFromLookup(lookup(map[string]string{"AUTH_LOGIN_ATTEMPTS_PER_MINUTE": v}))
		if err == nil || !strings.Contains(err.Error(), "AUTH_LOGIN_ATTEMPTS_PER_MINUTE") {
			t.Errorf("AUTH_LOGIN_ATTEMPTS_PER_MINUTE=%q: %v", v, err)
		}
	}
}
