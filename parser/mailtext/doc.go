// Package mailtext reads one raw email (EMAIL §2.3–2.5): its identity,
// its one sender, its reply token, whether it must be ignored, and the
// lines its sender wrote. Each step is linear in the message's size. It
// does no I/O and knows nothing of the command language: what the lines
// say is for package parser.
//
// # Reading a message
//
// Read reads the header (Message-ID, In-Reply-To, References, From, To,
// Cc, Subject with encoded words, Authentication-Results), decides whether
// the message must be ignored (EMAIL §2.3: Auto-Submitted other than "no",
// X-Autoreply/X-Autorespond, Precedence bulk/junk/list/auto_reply, List-Id,
// multipart/report and message/delivery-status, Return-Path <>,
// MAILER-DAEMON, postmaster and no-reply senders, the service's own
// address), then, if the message is within Options.MaxBytes, reads the
// first inline text/plain part of the MIME tree (else the first text/html
// part, turned into text), decoding quoted-printable, base64,
// format=flowed and any charset golang.org/x/text knows. Text labelled
// UTF-8 that is not is read as Windows-1252. Attachments and attached
// messages (message/rfc822) are not read.
//
// From the text it keeps the lines the player wrote: quoted lines ('>'),
// attribution lines ("On … wrote:", "El … escribió:", "Le … a écrit :",
// "Am … schrieb …:", also wrapped over two or three lines) and phone
// footers ("Sent from my iPhone", "Enviado desde mi …", "Envoyé de mon …",
// "Get Outlook for …", "Von meinem … gesendet" …) are dropped; a signature
// delimiter ("-- "), an Outlook separator ("-----Original Message-----",
// "-----Message d'origine-----", "-----Mensaje original-----", "-------- Original message --------"),
// a forwarded-message marker, a quoted header block (From:/De:/Von:
// followed by Sent:/Envoyé :/Enviado:/Date:/To: …) and an attribution
// not followed by quoted lines end it. Lines below a quote are kept, so a
// bottom-posted command is found. In HTML, <blockquote> and the quote
// containers of Gmail, Yahoo, Proton and Thunderbird count as quoted.
//
// # Tokens
//
// The reply token is the plus part of the service's local part in To, Cc,
// Delivered-To or X-Original-To ("lexio+TOKEN@…": the domain is not
// compared, as providers have aliases), or of the first plus-address when
// Options.ServiceAddress is empty. With Options.TokenInSubject the token is
// instead the last word of the subject tag "[Lexio <table> <token>]", and
// recipients are not looked at. Tokens are returned as written: compare
// them case-insensitively if the MTA may change case. The table of the tag
// "[Lexio <table> …]" is in Mail.Table either way. SubjectText gives
// what the player wrote in the subject: without its reply and forward
// prefixes and its tags.
//
// # Errors
//
// What keeps a message from being read is an *Error with a Kind and a
// Detail naming the offending input; package parser reports each as its
// own error of the same kind.
package mailtext
