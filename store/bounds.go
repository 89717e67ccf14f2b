package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
)

// ErrTimeRange: a time to be written lies outside the range every driver
// reads back (MinTime to MaxTime). Nothing is written.
var ErrTimeRange = errors.New("store: time out of range")

// The times the store writes. SQLite (glebarez) keeps a time as text and
// reads back only four-digit years: a time in year 10000 would be stored
// and then fail every read of its row. The end stops a day short of year
// 10000, so that no zone offset nor rounding crosses into it; nothing in
// a game comes before 1970.
var (
	MinTime = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	MaxTime = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC) // excluded
)

// registerTimeBounds makes every create and update check the times it
// writes, whatever the model or the form (a struct, a slice of them, a
// map of columns), before the statement runs.
func registerTimeBounds(db *gorm.DB) error {
	if err := db.Callback().Create().Before("gorm:create").Register("lexio:time_bounds", checkTimes); err != nil {
		return err
	}
	return db.Callback().Update().Before("gorm:update").Register("lexio:time_bounds", checkTimes)
}

// checkTimes fails the statement when a time of its values is out of
// range.
func checkTimes(db *gorm.DB) {
	if db.Error != nil || db.Statement.Dest == nil {
		return
	}
	if err := boundedTimes(reflect.ValueOf(db.Statement.Dest), 0); err != nil {
		_ = db.AddError(err)
	}
}

var timeType = reflect.TypeOf(time.Time{})

// boundedTimes checks the times in v: v itself, the elements of a slice
// or map, the exported fields of a struct (a preloaded player of a row
// included, depth at most 3). A zero time is unset and passes: gorm fills
// the created and updated stamps.
func boundedTimes(v reflect.Value, depth int) error {
	if depth > 3 {
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return boundedTimes(v.Elem(), depth)
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // bytes
		}
		for i := range v.Len() {
			if err := boundedTimes(v.Index(i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if err := boundedTimes(it.Value(), depth+1); err != nil {
				return err
			}
		}
	case reflect.Struct:
		if v.Type() == timeType {
			return checkTime(v.Interface().(time.Time))
		}
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			if err := boundedTimes(v.Field(i), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkTime returns ErrTimeRange for a time outside MinTime to MaxTime.
func checkTime(t time.Time) error {
	if t.IsZero() || (!t.Before(MinTime) && t.Before(MaxTime)) {
		return nil
	}
	return fmt.Errorf("%w: %s is not from %s to %s", ErrTimeRange,
		t.UTC().Format(time.RFC3339), MinTime.Format(time.DateOnly), MaxTime.Format(time.DateOnly))
}

// ErrTooLong: a string is longer than its column (PostgreSQL refuses it,
// SQLite would keep it). Nothing is written.
var ErrTooLong = errors.New("store: too long")

// The sizes, in characters, of the columns that hold what a sender
// writes (the models' size tags).
const (
	MaxAddress   = 320 // players.address, messages.from_addr, invitations.address
	maxMessageID = 998 // messages.message_id
	maxRateKey   = 400 // rate_counters.rate_key, which may hold an address
)

// messageKey is how a Message-ID is recorded: as it is, or when longer
// than its column its SHA-256, which names it as surely.
func messageKey(id string) string {
	if utf8.RuneCountInString(id) <= maxMessageID {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "sha256-id-" + hex.EncodeToString(sum[:])
}

// rateKey is how a rate counter's key is stored: as it is, or when
// longer than its column its SHA-256.
func rateKey(key string) string {
	if utf8.RuneCountInString(key) <= maxRateKey {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "sha256-" + hex.EncodeToString(sum[:])
}

// cut returns s cut to at most n characters.
func cut(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
