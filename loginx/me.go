package loginx

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/rolegate/rolegate/loginx/internal/store"
)

// Me is the user record returned by login and GET /api/v1/me.
type Me struct {
	ID               string     `json:"_id"`
	Name             string     `json:"name"`
	Emails           []Email    `json:"emails"`
	Status           string     `json:"status"`
	StatusConnection string     `json:"statusConnection"`
	Username         string     `json:"username"`
	UTCOffset        float64    `json:"utcOffset"`
	Active           bool       `json:"active"`
	Roles            []string   `json:"roles"`
	Settings         MeSettings `json:"settings"`
	AvatarURL        string     `json:"avatarUrl"`
}

// Email is one address of a Me record.
type Email struct {
	Address  string `json:"address"`
	Verified bool   `json:"verified"`
}

// MeSettings holds the user's settings.
type MeSettings struct {
	// Preferences is a JSON object.
	Preferences json.RawMessage `json:"preferences"`
}

// meRecord builds the Me record of u, with its roles from cfg.Roles.
func (s *Service) meRecord(ctx context.Context, u *store.User) (*Me, error) {
	roles := []string{}
	if s.cfg.Roles != nil {
		r, err := s.cfg.Roles(ctx, u.Username)
		if err != nil {
			return nil, fmt.Errorf("loginx: roles of the user: %w", err)
		}
		if r != nil {
			roles = r
		}
	}
	emails := []Email{}
	if u.Email != "" {
		emails = append(emails, Email{Address: u.Email, Verified: u.EmailVerified})
	}
	prefs := json.RawMessage(u.Preferences)
	if !json.Valid(prefs) {
		prefs = json.RawMessage("{}")
	}
	name := u.Name
	if name == "" {
		name = u.Username
	}
	return &Me{
		ID: u.ID, Name: name, Emails: emails, Status: u.Status, StatusConnection: u.StatusConnection,
		Username: u.Username, UTCOffset: u.UTCOffset, Active: u.Active, Roles: roles,
		Settings: MeSettings{Preferences: prefs}, AvatarURL: webURL(u.AvatarURL),
	}, nil
}

// utcOffset returns the current offset of an IANA zone in hours, 0 when
// the zone is unknown.
func utcOffset(zone string, now time.Time) float64 {
	if zone == "" {
		return 0
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return 0
	}
	_, off := now.In(loc).Zone()
	return float64(off) / 3600
}
