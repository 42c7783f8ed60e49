import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_USER_TEXT, plainLine } from './plain-line.js';
import { renderEmail, renderSms } from './templates.js';

describe('plainLine', () => {
  it('turns every line break and tab into one space: CR, LF, VT, FF, NEL, LINE and PARAGRAPH SEPARATOR', () => {
    assert.equal(plainLine('Acme\r\nBcc: x@example.com'), 'Acme Bcc: x@example.com');
    assert.equal(plainLine('a\r\n\r\n\tb\u000bc\u000cd\u0085e\u2028f\u2029g'), 'a b c d e f g');
  });

  it('removes the other C0 and C1 controls, DEL and the bidirectional controls', () => {
    assert.equal(plainLine('a\u0000b\u0007c\u001bd\u007fe\u0080f\u009fg'), 'abcdefg');
    assert.equal(plainLine('\u202Egro.elpmaxe\u202C \u2066x\u2069 \u200Ey\u200F \u061Cz \u202Ab\u202Bc\u202Dd'), 'gro.elpmaxe x y z bcd');
  });

  it('keeps what names need: letters of any script, joiners, emoji', () => {
    for (const name of ['Zoë Ångström', 'Ñandú', 'Δημήτρης', 'می‌خواهم', '👩‍💻 Dev', '山田 太郎']) assert.equal(plainLine(name), name);
  });

  it('trims, and collapses the spaces a removal leaves', () => {
    assert.equal(plainLine('  Acme \u0007 Corp \n '), 'Acme Corp');
    assert.equal(plainLine('\r\n\u0000'), '');
  });

  it('cuts to the given number of characters, counting code points, never splitting a surrogate pair', () => {
    assert.equal(plainLine('x'.repeat(200), MAX_USER_TEXT), 'x'.repeat(80));
    assert.equal(plainLine('x'.repeat(80), MAX_USER_TEXT), 'x'.repeat(80));
    assert.equal(plainLine('😀'.repeat(100), MAX_USER_TEXT), '😀'.repeat(80));
    assert.equal(plainLine(`${'a'.repeat(79)} b`, 80), 'a'.repeat(79));
    assert.equal(plainLine(`a\r\n${'b'.repeat(100)}`, 5), 'a bbb');
    assert.equal(plainLine('x'.repeat(200)), 'x'.repeat(200));
  });
});

describe('templates', () => {
  const vars = { organization: `Acme\r\nBcc: all@example.com ${'o'.repeat(100)}`, inviter: `Eve\n\u202E${'e'.repeat(100)}`,
    inviter_email: 'eve@example.com', role: 'Member', days: 7, token: 't'.repeat(43) };

  it('put what users wrote on one line, cut to 80 characters, in the subject, the text, the HTML and an SMS', () => {
    const org = plainLine(vars.organization, 80);
    const inviter = plainLine(vars.inviter, 80);
    assert.equal(org.length, 80);
    assert.equal(inviter.length, 80);
    const mail = renderEmail('invitation', 'en', vars);
    assert.equal(mail.subject, `You are invited to join ${org}`);
    assert.equal(mail.text.split('\n')[0], `${inviter} (eve@example.com) invited you to join ${org} as Member.`);
    assert.ok(mail.html.includes(`<p>${inviter} (eve@example.com) invited you to join ${org} as Member.</p>`), mail.html);
    assert.ok(renderSms('invitation', 'fr', vars).startsWith(`${inviter} (eve@example.com) vous invite à rejoindre ${org} en tant que Member.`));
  });

  it('keep what Gatehouse makes whole: a token, a link, an address', () => {
    const link = `https://app.example.com/join?token=${'t'.repeat(120)}`;
    const address = `${'a'.repeat(64)}@${'b'.repeat(60)}.example.com`;
    const mail = renderEmail('invitation', 'en', { ...vars, link, inviter_email: address, token: undefined });
    assert.ok(mail.text.endsWith(`\n\n${link}`), mail.text);
    assert.ok(mail.text.includes(`(${address})`), mail.text);
    assert.ok(renderEmail('invitation', 'en', vars).text.includes(`Your invitation token: ${vars.token}`));
  });

  it('name the inviter by address alone, or by name alone in a message queued before addresses were named', () => {
    assert.ok(renderEmail('invitation', 'en', { ...vars, inviter: undefined }).text.startsWith('eve@example.com invited you'));
    assert.ok(renderEmail('invitation', 'en', { ...vars, inviter_email: undefined, inviter: 'Eve' }).text.startsWith('Eve invited you'));
    assert.ok(renderEmail('invitation', 'fr', { organization: 'Acme' }).text.startsWith('Un membre vous invite'));
  });
});
