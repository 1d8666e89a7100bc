package main

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/middleware"
)

// noteStore is the host app's own data: notes in its own table,
// hostapp_notes, in the database rolegate opened (az.DB()), each with an
// id, its author (the user the guard resolved) and, for notes written
// under /orgs/:org/notes, its org. A note without org is reached under
// /notes, one with an org under /orgs/<its org>/notes only.
type noteStore struct {
	db *bun.DB
}

// noteRow is a row of hostapp_notes; Org is "" for the notes under /notes.
type noteRow struct {
	bun.BaseModel `bun:"table:hostapp_notes"`
	ID            int64  `bun:",pk,autoincrement"`
	Author        string `bun:",notnull"`
	Org           string `bun:",notnull"`
	Text          string `bun:",notnull"`
}

// note is a note as the API shows it.
type note struct {
	ID     string `json:"id"`
	Author string `json:"author"`
	Org    string `json:"org,omitempty"`
	Text   string `json:"text"`
}

func (r noteRow) note() note {
	return note{ID: strconv.FormatInt(r.ID, 10), Author: r.Author, Org: r.Org, Text: r.Text}
}

// newNoteStore makes the notes table (and its index by org) when missing.
// Ids are never reused, so a deleted note's URL finds nothing later.
func newNoteStore(ctx context.Context, db *bun.DB) (*noteStore, error) {
	if _, err := db.NewCreateTable().Model((*noteRow)(nil)).IfNotExists().Exec(ctx); err != nil {
		return nil, err
	}
	if _, err := db.NewCreateIndex().Model((*noteRow)(nil)).Index("hostapp_notes_org").Column("org").IfNotExists().Exec(ctx); err != nil {
		return nil, err
	}
	return &noteStore{db: db}, nil
}

// find is the note with id in org ("" for the notes under /notes).
func (s *noteStore) find(ctx context.Context, org, id string) (noteRow, bool, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return noteRow{}, false, nil // not an id: no such note
	}
	var r noteRow
	err = s.db.NewSelect().Model(&r).Where("id = ? AND org = ?", n, org).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return noteRow{}, false, nil
	}
	return r, err == nil, err
}

// list answers the notes of the URL's org (none: those under /notes).
func (s *noteStore) list(c *gin.Context) {
	org := c.Param("org")
	var rows []noteRow
	if err := s.db.NewSelect().Model(&rows).Where("org = ?", org).Order("id").Scan(c.Request.Context()); err != nil {
		storeFailed(c, err)
		return
	}
	out := make([]note, len(rows))
	for i, r := range rows {
		out[i] = r.note()
	}
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
	r := noteRow{Author: user, Org: c.Param("org"), Text: in.Text}
	if _, err := s.db.NewInsert().Model(&r).Exec(c.Request.Context()); err != nil {
		storeFailed(c, err)
		return
	}
	c.JSON(http.StatusCreated, r.note())
}

// orgs answers GET /orgs: the orgs holding notes in which the user may
// read notes, read from the app's own table through rolegate's filter
// (one query; no condition for a global reader, none read for a user
// who may read nowhere).
func (s *noteStore) orgs(az *authz.Authz) gin.HandlerFunc {
	return func(c *gin.Context) {
		where, err := az.WhereCan(c, "read")
		switch {
		case errors.Is(err, authz.ErrNoUser):
			c.JSON(http.StatusUnauthorized, gin.H{"error": "no user"})
			return
		case err != nil:
			c.JSON(http.StatusServiceUnavailable, gin.H{"error": "authorization unavailable"})
			return
		}
		orgs := []string{}
		q := s.db.NewSelect().Model((*noteRow)(nil)).ColumnExpr("DISTINCT org").Where("org <> ''").Order("org")
		if err := where.Filter(q, "org").Scan(c.Request.Context(), &orgs); err != nil {
			storeFailed(c, err)
			return
		}
		c.JSON(http.StatusOK, gin.H{"orgs": orgs})
	}
}

// isAuthor is the owner rule of DELETE /notes/:id (authz.OrIf): the user
// wrote the note. An unknown id is authz.ErrResourceNotFound, so the guard
// answers 404 rather than 403.
func (s *noteStore) isAuthor(c *gin.Context, user string) (bool, error) {
	n, ok, err := s.find(c.Request.Context(), "", c.Param("id"))
	switch {
	case err != nil:
		return false, err
	case !ok:
		return false, authz.ErrResourceNotFound
	}
	return n.Author == user, nil
}

// orgOf is the scope of DELETE /orgs/:org/notes/:id (authz.ScopeFunc):
// the org the note was written in. A note of another org than the URL's
// is not found there (404), so a moderator of org-7 cannot reach an org-42
// note through an org-7 URL.
func (s *noteStore) orgOf(c *gin.Context) (string, error) {
	n, ok, err := s.find(c.Request.Context(), c.Param("org"), c.Param("id"))
	switch {
	case err != nil:
		return "", err
	case !ok || n.Org == "":
		return "", authz.ErrResourceNotFound
	}
	return n.Org, nil
}

// remove deletes the note named by the URL; 204, or 404 when another
// request deleted it since the guard looked.
func (s *noteStore) remove(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		c.JSON(http.StatusNotFound, gin.H{"error": "no such note"})
		return
	}
	res, err := s.db.NewDelete().Model((*noteRow)(nil)).Where("id = ? AND org = ?", id, c.Param("org")).Exec(c.Request.Context())
	if err != nil {
		storeFailed(c, err)
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		c.JSON(http.StatusNotFound, gin.H{"error": "no such note"})
		return
	}
	c.Status(http.StatusNoContent)
}

// storeFailed answers a failed read or write of the notes table.
func storeFailed(c *gin.Context, err error) {
	_ = c.Error(err)
	c.JSON(http.StatusServiceUnavailable, gin.H{"error": "notes unavailable"})
}
