package inbox

import (
	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// help answers HELP, and HELP RULES with the rules of the game, from the
// table it came through or the sender's one table (ReplyTable).
func (s *Service) help(h *table.Request, t *table.Table, topic string) error {
	t, err := h.ReplyTable(t)
	if err != nil {
		return err
	}
	to := h.Sender(t)
	head := s.Notices.Head(table.TableName(t), to, h.Now)
	if topic == "rules" {
		h.Outcome(table.OutcomeApplied, "HELP RULES")
		// The rules show the Lexio board, whatever the table plays.
		board := notice.BoardData(&board.Board{}, board.Rules{}, nil)
		return h.Reply(t, templates.RulesMsg{Head: head, Board: board})
	}
	h.Outcome(table.OutcomeApplied, "HELP")
	return h.Reply(t, templates.HelpMsg{Head: head, Address: s.Cfg.Mail.Address})
}
