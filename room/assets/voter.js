// The voter's page (docs/ROOM.md): no framework, no request but to this server, no inline code
// (the page's Content-Security-Policy allows this file only). It says hello with a voter id kept
// in localStorage, so a phone that reconnects is the same voter with its one vote; it shows the
// question on the lecture's screen (never its answer) and sends a vote when a choice is tapped.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const status = $('status'), prompt = $('prompt'), list = $('choices'), note = $('note');

  // 22 characters of A-Z a-z 0-9 from the browser's cryptographic random source.
  function voterId() {
    const key = 'locklab-voter';
    let id = null;
    try { id = localStorage.getItem(key); } catch (e) { /* storage refused: one id per page load */ }
    if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
      const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
      const bytes = new Uint8Array(22);
      crypto.getRandomValues(bytes);
      id = Array.from(bytes, (b) => abc[b % abc.length]).join('');
      try { localStorage.setItem(key, id); } catch (e) { /* as above */ }
    }
    return id;
  }

  const id = voterId();
  let socket = null;
  let question = null;
  let retry = 500;

  function say(text, isError) {
    note.textContent = text;
    note.className = isError ? 'error' : '';
  }

  function show(q) {
    question = q;
    list.textContent = '';
    if (!q) {
      prompt.textContent = '';
      status.textContent = 'Connected. Waiting for a question on the screen…';
      say('', false);
      return;
    }
    prompt.textContent = q.prompt;
    status.textContent = q.open ? 'Tap your answer. You may change it until the reveal.' : 'Voting closed: the answer is on the screen.';
    q.choices.forEach((label, i) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.choice = String(i);
      b.dataset.testid = 'voter-choice';
      b.setAttribute('aria-pressed', String(q.yours === i));
      b.disabled = !q.open;
      const n = document.createElement('span');
      n.className = 'n';
      n.textContent = String(i + 1);
      const words = document.createElement('span');
      words.textContent = label;
      b.append(n, words);
      b.addEventListener('click', () => vote(i));
      li.append(b);
      list.append(li);
    });
    say(q.yours === null || q.yours === undefined ? '' : 'Your vote: ' + (q.yours + 1) + '.', false);
  }

  function vote(i) {
    if (!question || !question.open || !socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: 'vote', lesson: question.lesson, step: question.step, choice: i }));
  }

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(scheme + '//' + location.host + '/room/voter');
    socket.addEventListener('open', () => {
      retry = 500;
      socket.send(JSON.stringify({ type: 'hello', voter: id }));
    });
    socket.addEventListener('message', (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.type === 'question') show(m);
      else if (m.type === 'idle') show(null);
      else if (m.type === 'voted' && question && m.lesson === question.lesson && m.step === question.step) {
        show(Object.assign({}, question, { yours: m.choice }));
      } else if (m.type === 'error') say(m.error, true);
    });
    socket.addEventListener('close', () => {
      status.textContent = 'Reconnecting…';
      // Back off to at most 5 s: a hall of phones does not hammer a server that restarts.
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    });
  }

  connect();
})();
