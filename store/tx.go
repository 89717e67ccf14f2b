package store

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Tx is one transaction, bound to the context given to Store.Tx or
// Store.View. Its methods return ErrNotFound, ErrDuplicate or ErrConflict
// (wrapped; check with errors.Is) where they say so; IsTemporary says
// which errors are worth trying again.
type Tx struct {
	db  *gorm.DB
	now func() time.Time
}

// NormalizeAddress returns the form addresses are stored in: trimmed and
// lowercase.
func NormalizeAddress(addr string) string {
	return strings.ToLower(strings.TrimSpace(addr))
}

// DB is the transaction's handle, for the store's sub-packages: what they
// write passes the same time bounds; their errors go through MapErr.
func (tx *Tx) DB() *gorm.DB { return tx.db }

// Now reads the store's clock (Options.Now).
func (tx *Tx) Now() time.Time { return tx.now() }

// Insert inserts row unless a unique key is taken, in which case it
// returns ErrDuplicate. ON CONFLICT DO NOTHING keeps the transaction usable
// after a clash (on PostgreSQL a failed INSERT would abort it).
func (tx *Tx) Insert(what string, row any) error {
	res := tx.db.Clauses(clause.OnConflict{DoNothing: true}).Create(row)
	if res.Error != nil {
		return fmt.Errorf("store: insert %s: %w", what, MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: insert %s: %w", what, ErrDuplicate)
	}
	return nil
}

// First reads a row matching query into dst; ErrNotFound if there is none.
func (tx *Tx) First(what string, dst any, query string, args ...any) error {
	err := tx.db.Where(query, args...).Take(dst).Error
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, MapErr(err))
	}
	return nil
}

// ---- players

// PlayerByAddress returns the player with that address, or ErrNotFound.
func (tx *Tx) PlayerByAddress(addr string) (*Player, error) {
	var p Player
	if err := tx.First("player", &p, "address = ?", NormalizeAddress(addr)); err != nil {
		return nil, err
	}
	return &p, nil
}

// EnsurePlayer returns the player with that address, creating it with lang
// if there is none; an existing player's language is left as it is.
func (tx *Tx) EnsurePlayer(addr, lang string) (*Player, error) {
	addr = NormalizeAddress(addr)
	if addr == "" {
		return nil, errors.New("store: player: empty address")
	}
	if n := utf8.RuneCountInString(addr); n > MaxAddress {
		return nil, fmt.Errorf("store: player: an address of %d characters, over %d: %w", n, MaxAddress, ErrTooLong)
	}
	p := Player{Address: addr, Lang: lang}
	err := tx.Insert("player", &p)
	if err == nil {
		return &p, nil
	}
	if !errors.Is(err, ErrDuplicate) {
		return nil, err
	}
	return tx.PlayerByAddress(addr)
}

// SetPlayerLang sets the player's interface language, or returns
// ErrNotFound.
func (tx *Tx) SetPlayerLang(addr, lang string) error {
	res := tx.db.Model(&Player{}).Where("address = ?", NormalizeAddress(addr)).Update("lang", lang)
	if res.Error != nil {
		return fmt.Errorf("store: player lang: %w", MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: player lang: %w", ErrNotFound)
	}
	return nil
}

// SetPlayerZone sets the player's time zone (an IANA name, "" for the
// configuration's), or returns ErrNotFound.
func (tx *Tx) SetPlayerZone(addr, zone string) error {
	res := tx.db.Model(&Player{}).Where("address = ?", NormalizeAddress(addr)).Update("time_zone", zone)
	if res.Error != nil {
		return fmt.Errorf("store: player zone: %w", MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: player zone: %w", ErrNotFound)
	}
	return nil
}

// ---- tables

// CreateTable inserts t (its ID, DueAt and stamps are set) or returns
// ErrDuplicate when the name is taken.
func (tx *Tx) CreateTable(t *Table) error {
	if t.Status == "" {
		t.Status = StatusOpen
	}
	t.normalize()
	if err := tx.Insert("table", t); err != nil {
		return err
	}
	t.read, t.readOK = t.Deadline, true
	return nil
}

// TableByName returns the table with that name, or ErrNotFound.
func (tx *Tx) TableByName(name string) (*Table, error) {
	var t Table
	if err := tx.First("table", &t, "name = ?", name); err != nil {
		return nil, err
	}
	return &t, nil
}

// TableByID returns the table with that id, or ErrNotFound.
func (tx *Tx) TableByID(id int64) (*Table, error) {
	var t Table
	if err := tx.First("table", &t, "id = ?", id); err != nil {
		return nil, err
	}
	return &t, nil
}

// Tables returns every table, by name; status "" means any status.
func (tx *Tx) Tables(status TableStatus) ([]Table, error) {
	q := tx.db.Order("name")
	if status != "" {
		q = q.Where("status = ?", status)
	}
	var ts []Table
	if err := q.Find(&ts).Error; err != nil {
		return nil, fmt.Errorf("store: tables: %w", MapErr(err))
	}
	return ts, nil
}

// TableCounts counts the tables by status.
func (tx *Tx) TableCounts() (map[string]int, error) {
	var rows []struct {
		Status string
		N      int
	}
	if err := tx.db.Model(&Table{}).Select("status, count(*) AS n").Group("status").Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("store: table counts: %w", MapErr(err))
	}
	counts := make(map[string]int, len(rows))
	for _, r := range rows {
		counts[r.Status] = r.N
	}
	return counts, nil
}

// TableRef names a table without the rest of its row.
type TableRef struct {
	ID   int64
	Name string
}

// TableRefs returns the id and name of every table, by name; status ""
// means any status. It reads no time of the rows: a listing that must go
// on past a row the driver cannot read back (one written before
// ErrTimeRange guarded the writes) reads each row apart, by TableByID.
func (tx *Tx) TableRefs(status string) ([]TableRef, error) {
	q := tx.db.Model(&Table{}).Select("id, name").Order("name")
	if status != "" {
		q = q.Where("status = ?", status)
	}
	var refs []TableRef
	if err := q.Scan(&refs).Error; err != nil {
		return nil, fmt.Errorf("store: table refs: %w", MapErr(err))
	}
	return refs, nil
}

// TableRefsOfPlayer is TableRefs of the tables where the player with that
// address has a seat (none if the player is unknown).
func (tx *Tx) TableRefsOfPlayer(addr string) ([]TableRef, error) {
	var refs []TableRef
	err := tx.db.Model(&Table{}).Select("tables.id, tables.name").
		Joins("JOIN seats ON seats.table_id = tables.id").
		Joins("JOIN players ON players.id = seats.player_id").
		Where("players.address = ?", NormalizeAddress(addr)).
		Order("tables.name").
		Scan(&refs).Error
	if err != nil {
		return nil, fmt.Errorf("store: table refs of player: %w", MapErr(err))
	}
	return refs, nil
}

// TablesOfPlayer returns the tables where the player with that address has a
// seat, by name (none if the player is unknown).
func (tx *Tx) TablesOfPlayer(addr string) ([]Table, error) {
	var ts []Table
	err := tx.db.
		Joins("JOIN seats ON seats.table_id = tables.id").
		Joins("JOIN players ON players.id = seats.player_id").
		Where("players.address = ?", NormalizeAddress(addr)).
		Order("tables.name").
		Find(&ts).Error
	if err != nil {
		return nil, fmt.Errorf("store: tables of player: %w", MapErr(err))
	}
	return ts, nil
}

// SaveTable writes t's mutable part — Seed and StartedAt (set when the game
// starts), Seq, Status, TurnStarted, Deadline, NextReminder (nil clears) — if the stored seq is still prevSeq
// (optimistic locking); otherwise it returns ErrConflict, or ErrNotFound if
// there is no such table. DueAt and UpdatedAt are set. A row read in this
// transaction is also saved only if its stored deadline is still the one
// read: a vacation moves deadlines without an action (LEAGUES §3.2), and
// a writer that did not see it must not put the old one back.
func (tx *Tx) SaveTable(t *Table, prevSeq int64) error {
	t.normalize()
	t.UpdatedAt = tx.now().UTC()
	q := tx.db.Model(&Table{}).Where("id = ? AND seq = ?", t.ID, prevSeq)
	if t.readOK {
		if t.read == nil {
			q = q.Where("deadline IS NULL")
		} else {
			// A millisecond either way: the drivers store times to the
			// microsecond (PostgreSQL) or as text (SQLite).
			q = q.Where("deadline > ? AND deadline < ?", t.read.Add(-time.Millisecond), t.read.Add(time.Millisecond))
		}
	}
	res := q.
		Updates(map[string]any{
			"seed":          t.Seed,
			"started_at":    t.StartedAt,
			"seq":           t.Seq,
			"status":        t.Status,
			"turn_started":  t.TurnStarted,
			"deadline":      t.Deadline,
			"next_reminder": t.NextReminder,
			"due_at":        t.DueAt,
			"updated_at":    t.UpdatedAt,
		})
	if res.Error != nil {
		return fmt.Errorf("store: save table %d: %w", t.ID, MapErr(res.Error))
	}
	if res.RowsAffected == 1 {
		t.read, t.readOK = t.Deadline, true
		return nil
	}
	cur, err := tx.TableByID(t.ID)
	if err != nil {
		return fmt.Errorf("store: save table %d: %w", t.ID, err)
	}
	if cur.Seq == prevSeq {
		return fmt.Errorf("store: save table %d: its deadline moved meanwhile: %w", t.ID, ErrConflict)
	}
	return fmt.Errorf("store: save table %d: stored seq %d, expected %d: %w", t.ID, cur.Seq, prevSeq, ErrConflict)
}

// DueTables returns up to limit playing tables whose deadline or next
// reminder is at or before now, earliest first (ties by id), so that
// deadlines missed while the daemon was down are enforced in order.
// Each has its ID and Name only: the caller reads each row in its own
// transaction, where a row the driver cannot read back fails alone
// instead of every tick.
func (tx *Tx) DueTables(now time.Time, limit int) ([]Table, error) {
	var ts []Table
	err := tx.db.Select("id, name").
		Where("status = ? AND due_at <= ?", StatusPlaying, now.UTC()).
		Order("due_at, id").
		Limit(limit).
		Find(&ts).Error
	if err != nil {
		return nil, fmt.Errorf("store: due tables: %w", MapErr(err))
	}
	return ts, nil
}

// NextDue returns the earliest deadline or next reminder of a playing
// table that comes after after, and false when there is none: when the
// scheduler's next tick must come. A table due at or before after is
// left out: it was due at the tick of after and is left to the next.
func (tx *Tx) NextDue(after time.Time) (time.Time, bool, error) {
	var ts []Table
	err := tx.db.Select("id, due_at").
		Where("status = ? AND due_at > ?", StatusPlaying, after.UTC()).
		Order("due_at").
		Limit(1).
		Find(&ts).Error
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: next due table: %w", MapErr(err))
	}
	if len(ts) == 0 || ts[0].DueAt == nil {
		return time.Time{}, false, nil
	}
	return ts[0].DueAt.UTC(), true, nil
}

// ---- vacations

// AddVacation records a vacation (its ID is set).
func (tx *Tx) AddVacation(v *Vacation) error {
	v.normalize()
	if err := tx.db.Create(v).Error; err != nil {
		return fmt.Errorf("store: add vacation: %w", MapErr(err))
	}
	return nil
}

// SaveVacation writes what changes of a vacation: To, Days, EndedAt,
// Told and DueAt; ErrNotFound if there is none with its ID.
func (tx *Tx) SaveVacation(v *Vacation) error {
	v.normalize()
	res := tx.db.Model(&Vacation{}).Where("id = ?", v.ID).Updates(map[string]any{
		"to_at": v.To, "days": v.Days, "ended_at": v.EndedAt, "told": v.Told, "due_at": v.DueAt,
	})
	if res.Error != nil {
		return fmt.Errorf("store: save vacation %d: %w", v.ID, MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: save vacation %d: %w", v.ID, ErrNotFound)
	}
	return nil
}

// Vacations returns the vacations of the players with those ids, by
// start (ties by id), each with its Player.
func (tx *Tx) Vacations(playerIDs ...int64) ([]Vacation, error) {
	var vs []Vacation
	if len(playerIDs) == 0 {
		return nil, nil
	}
	if err := tx.db.Preload("Player").Where("player_id IN ?", playerIDs).Order("from_at, id").Find(&vs).Error; err != nil {
		return nil, fmt.Errorf("store: vacations: %w", MapErr(err))
	}
	// PostgreSQL's driver gives times in the session's zone: UTC as stored.
	for i := range vs {
		vs[i].normalize()
	}
	return vs, nil
}

// DueVacations returns up to limit vacations whose start or end is due to
// be told at or before now, earliest first (ties by id), each with its ID
// and PlayerID only: the caller reads them in its own transaction (see
// DueTables).
func (tx *Tx) DueVacations(now time.Time, limit int) ([]Vacation, error) {
	var vs []Vacation
	err := tx.db.Select("id, player_id").Where("due_at <= ?", now.UTC()).Order("due_at, id").Limit(limit).Find(&vs).Error
	if err != nil {
		return nil, fmt.Errorf("store: due vacations: %w", MapErr(err))
	}
	return vs, nil
}

// LockPlayer takes the player's row for the rest of the transaction (a
// write that changes nothing), so that two transactions changing their
// vacations run one after the other on PostgreSQL too; ErrNotFound if
// there is no such player.
func (tx *Tx) LockPlayer(id int64) error {
	res := tx.db.Exec("UPDATE players SET lang = lang WHERE id = ?", id)
	if res.Error != nil {
		return fmt.Errorf("store: lock player %d: %w", id, MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: lock player %d: %w", id, ErrNotFound)
	}
	return nil
}

// ---- seats

// AddSeat seats a player: ErrDuplicate if the player already sits there,
// ErrConflict if the position is taken (another writer seated someone
// first: the caller's seats are stale). Position is the join order, 0-3.
func (tx *Tx) AddSeat(s *Seat) error {
	if s.Position < 0 || s.Position > 3 {
		return fmt.Errorf("store: seat position %d out of 0-3", s.Position)
	}
	err := tx.Insert("seat", s)
	if !errors.Is(err, ErrDuplicate) {
		return err
	}
	var n int64
	if err := tx.db.Model(&Seat{}).Where("table_id = ? AND player_id = ?", s.TableID, s.PlayerID).Count(&n).Error; err != nil {
		return fmt.Errorf("store: seat: %w", MapErr(err))
	}
	if n > 0 {
		return err
	}
	return fmt.Errorf("store: seat %d of table %d taken: %w", s.Position, s.TableID, ErrConflict)
}

// MoveSeat gives the seat at position of a table to the player with
// playerID (LEAGUES §4.1): the seat keeps its place, the game keeps what
// it holds; the old holder's NOTIFY choice and note there go with them. It returns ErrDuplicate if that player already sits at the
// table, ErrNotFound if there is no such seat.
func (tx *Tx) MoveSeat(tableID int64, position int, playerID int64) error {
	var n int64
	if err := tx.db.Model(&Seat{}).Where("table_id = ? AND player_id = ?", tableID, playerID).Count(&n).Error; err != nil {
		return fmt.Errorf("store: move seat: %w", MapErr(err))
	}
	if n > 0 {
		return fmt.Errorf("store: move seat: player %d already sits at table %d: %w", playerID, tableID, ErrDuplicate)
	}
	res := tx.db.Model(&Seat{}).Where("table_id = ? AND position = ?", tableID, position).
		Updates(map[string]any{"player_id": playerID, "notify": "", "note": ""})
	if res.Error != nil {
		return fmt.Errorf("store: move seat: %w", MapErr(res.Error))
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("store: move seat %d of table %d: %w", position, tableID, ErrNotFound)
	}
	return nil
}

// Seats returns a table's seats by position, each with its Player.
func (tx *Tx) Seats(tableID int64) ([]Seat, error) {
	var ss []Seat
	if err := tx.db.Preload("Player").Where("table_id = ?", tableID).Order("position").Find(&ss).Error; err != nil {
		return nil, fmt.Errorf("store: seats: %w", MapErr(err))
	}
	return ss, nil
}

// ---- action log

// AppendAction adds an entry to a table's log. A seq already taken returns
// ErrConflict: another writer appended first, and the caller's view of the
// table is stale (it is not ErrDuplicate: nothing says that this writer's
// change was made).
func (tx *Tx) AppendAction(tableID, seq int64, kind, payload string, at time.Time) (*Action, error) {
	a := Action{TableID: tableID, Seq: seq, Kind: kind, Payload: payload, At: at.UTC()}
	if err := tx.Insert("action", &a); err != nil {
		if errors.Is(err, ErrDuplicate) {
			return nil, fmt.Errorf("store: table %d action %d taken: %w", tableID, seq, ErrConflict)
		}
		return nil, err
	}
	return &a, nil
}

// Actions returns a table's whole log, in seq order.
func (tx *Tx) Actions(tableID int64) ([]Action, error) {
	var as []Action
	if err := tx.db.Where("table_id = ?", tableID).Order("seq").Find(&as).Error; err != nil {
		return nil, fmt.Errorf("store: actions: %w", MapErr(err))
	}
	return as, nil
}

// ---- inbound messages

// RecordMessage records a processed inbound message. It returns ErrDuplicate
// if the Message-ID, or the (mailbox, UIDVALIDITY, UID), is already
// recorded; the transaction stays usable. At defaults to now. The
// sender's hostile strings fit their columns (a refusal would leave the
// message to be tried again for ever): a Message-ID too long is recorded
// as its hash (messageKey), a From too long is cut.
func (tx *Tx) RecordMessage(m *Message) error {
	if m.MessageID == "" {
		return errors.New("store: message: empty Message-ID")
	}
	if m.At.IsZero() {
		m.At = tx.now()
	}
	m.At = m.At.UTC()
	m.MessageID = messageKey(m.MessageID)
	m.From = cut(NormalizeAddress(m.From), MaxAddress)
	return tx.Insert("message", m)
}

// MessageSeen reports whether a Message-ID is recorded.
func (tx *Tx) MessageSeen(messageID string) (bool, error) {
	var n int64
	if err := tx.db.Model(&Message{}).Where("message_id = ?", messageKey(messageID)).Limit(1).Count(&n).Error; err != nil {
		return false, fmt.Errorf("store: message seen: %w", MapErr(err))
	}
	return n > 0, nil
}

// MessageByID returns the record of a Message-ID, or ErrNotFound.
func (tx *Tx) MessageByID(messageID string) (*Message, error) {
	var m Message
	if err := tx.First("message", &m, "message_id = ?", messageKey(messageID)); err != nil {
		return nil, err
	}
	return &m, nil
}

// ---- rate counters

// TakeRate counts one event for key if fewer than limit were counted in the
// current window, and reports whether it did. A window opens at the first
// event after the previous one closed and lasts window. It is atomic: two
// transactions never both take the last slot.
func (tx *Tx) TakeRate(key string, limit int, window time.Duration, now time.Time) (bool, error) {
	if limit <= 0 {
		return false, nil
	}
	key = rateKey(key)
	now = now.UTC()
	open := now.Add(-window) // a window that started after open is current
	for range 2 {
		// In the current window, under the limit: count one.
		res := tx.db.Model(&RateCounter{}).
			Where("rate_key = ? AND window_start > ? AND hits < ?", key, open, limit).
			Update("hits", gorm.Expr("hits + 1"))
		if res.Error != nil {
			return false, fmt.Errorf("store: rate: %w", MapErr(res.Error))
		}
		if res.RowsAffected == 1 {
			return true, nil
		}
		// The window closed: open a new one.
		res = tx.db.Model(&RateCounter{}).
			Where("rate_key = ? AND window_start <= ?", key, open).
			Updates(map[string]any{"window_start": now, "window_end": now.Add(window), "hits": 1})
		if res.Error != nil {
			return false, fmt.Errorf("store: rate: %w", MapErr(res.Error))
		}
		if res.RowsAffected == 1 {
			return true, nil
		}
		// No row yet: the first event. If another transaction inserted it
		// meanwhile, go round once more to count against its row.
		res = tx.db.Clauses(clause.OnConflict{DoNothing: true}).
			Create(&RateCounter{Key: key, WindowStart: now, WindowEnd: now.Add(window), Count: 1})
		if res.Error != nil {
			return false, fmt.Errorf("store: rate: %w", MapErr(res.Error))
		}
		if res.RowsAffected == 1 {
			return true, nil
		}
		var rc RateCounter
		if err := tx.db.Where("rate_key = ?", key).Take(&rc).Error; err != nil {
			return false, fmt.Errorf("store: rate: %w", MapErr(err))
		}
		if rc.WindowStart.After(open) && rc.Count >= limit {
			return false, nil
		}
	}
	return false, fmt.Errorf("store: rate %q: %w", key, ErrConflict)
}
