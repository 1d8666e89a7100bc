package main

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/middleware"
)

// noteStore is the host app's own data: notes in memory, each with an id,
// its author (the user the guard resolved) and, for notes written under
// /orgs/:org/notes, its org. A note without org is reached under /notes,
// one with an org under /orgs/<its org>/notes only.
type noteStore struct {
	mu    sync.Mutex
	next  int
	notes []note // in the order written
}

type note struct {
	ID     string `json:"id"`
	Author string `json:"author"`
	Org    string `json:"org,omitempty"`
	Text   string `json:"text"`
}

func newNoteStore() *noteStore { return &noteStore{} }

// find is the note with id in org ("" for the notes under /notes).
func (s *noteStore) find(org, id string) (note, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.notes {
		if n.ID == id && n.Org == org {
			return n, true
		}
	}
	return note{}, false
}

// list answers the notes of the URL's org (none: those under /notes).
func (s *noteStore) list(c *gin.Context) {
	org := c.Param("org")
	s.mu.Lock()
	out := []note{}
	for _, n := range s.notes {
		if n.Org == org {
			out = append(out, n)
		}
	}
	s.mu.Unlock()
	if org == "" {
		c.JSON(http.StatusOK, gin.H{"notes": out})
		return
	}
	c.JSON(http.StatusOK, gin.H{"org": org, "notes": out})
}

func (s *noteStore) create(c *gin.Context) {
	var in struct {
		Text string `json:"text" binding:"required,max=1000"`
	}
	if err := c.ShouldBindJSON(&in); err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": "send {\"text\": \"...\"}"})
		return
	}
	user, _ := middleware.UserFrom(c)
	s.mu.Lock()
	s.next++
	n := note{ID: strconv.Itoa(s.next), Author: user, Org: c.Param("org"), Text: in.Text}
	s.notes = append(s.notes, n)
	s.mu.Unlock()
	c.JSON(http.StatusCreated, n)
}

// isAuthor is the owner rule of DELETE /notes/:id (authz.OrIf): the user
// wrote the note. An unknown id is authz.ErrResourceNotFound, so the guard
// answers 404 rather than 403.
func (s *noteStore) isAuthor(c *gin.Context, user string) (bool, error) {
	n, ok := s.find("", c.Param("id"))
	if !ok {
		return false, authz.ErrResourceNotFound
	}
	return n.Author == user, nil
}

// orgOf is the scope of DELETE /orgs/:org/notes/:id (authz.ScopeFunc):
// the org the note was written in. A note of another org than the URL's
// is not found there (404), so a moderator of org-7 cannot reach an org-42
// note through an org-7 URL.
func (s *noteStore) orgOf(c *gin.Context) (string, error) {
	n, ok := s.find(c.Param("org"), c.Param("id"))
	if !ok || n.Org == "" {
		return "", authz.ErrResourceNotFound
	}
	return n.Org, nil
}

// remove deletes the note named by the URL; 204, or 404 when another
// request deleted it since the guard looked.
func (s *noteStore) remove(c *gin.Context) {
	org, id := c.Param("org"), c.Param("id")
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, n := range s.notes {
		if n.ID == id && n.Org == org {
			s.notes = append(s.notes[:i], s.notes[i+1:]...)
			c.Status(http.StatusNoContent)
			return
		}
	}
	c.JSON(http.StatusNotFound, gin.H{"error": "no such note"})
}
