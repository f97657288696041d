/* global window, document */
/*
 * Parcours demo quiz (written by content/tools/make-packages.ts into each demo package). The
 * screens: intro, one question per screen, result. `window.PARCOURS_QUIZ` holds the texts and
 * `window.PARCOURS_RUNTIME` talks to the platform (SCORM 1.2, SCORM 2004 or cmi5: runtime.js).
 * The bookmark is the screen ('intro', 'q1'…'q4', 'result'); the suspend data holds the answers.
 */
(function () {
  'use strict';
  var quiz = window.PARCOURS_QUIZ;
  var runtime = window.PARCOURS_RUNTIME;
  var main = document.getElementById('quiz');
  var notice = document.getElementById('notice');
  var total = quiz.questions.length;
  var state = { location: 'intro', answers: [], finished: false };

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (_, key) {
      return String(values[key]);
    });
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === 'text') node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) {
      node.appendChild(child);
    });
    return node;
  }

  function say(text) {
    notice.textContent = text || '';
    notice.hidden = !text;
  }

  function show(nodes) {
    main.textContent = '';
    nodes.forEach(function (node) {
      main.appendChild(node);
    });
    var heading = main.querySelector('h1, h2');
    if (heading) {
      heading.setAttribute('tabindex', '-1');
      heading.focus();
    }
  }

  function correctCount() {
    return quiz.questions.reduce(function (sum, q, i) {
      return sum + (state.answers[i] === q.answer ? 1 : 0);
    }, 0);
  }

  function save() {
    return runtime.save(state.location, state.answers).catch(function () {
      say(quiz.ui.saveFailed);
    });
  }

  function intro() {
    var start = el('button', { type: 'button', text: quiz.ui.start });
    start.addEventListener('click', function () {
      state.location = 'q1';
      void save();
      question(0);
    });
    show([el('h1', { text: quiz.title }), el('p', { text: quiz.ui.intro }), start]);
  }

  function question(index) {
    var q = quiz.questions[index];
    var name = 'q' + (index + 1);
    var choices = q.choices.map(function (choice, c) {
      var input = el('input', { type: 'radio', name: name, id: name + '-' + c, value: String(c) });
      return el('div', { class: 'choice' }, [input, el('label', { for: name + '-' + c, text: choice })]);
    });
    var last = index === total - 1;
    var next = el('button', { type: 'submit', text: last ? quiz.ui.finish : quiz.ui.next });
    var form = el('form', {}, [el('fieldset', {}, [el('legend', { text: q.text })].concat(choices)), next]);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var picked = form.querySelector('input:checked');
      if (!picked) return;
      var choice = Number(picked.value);
      state.answers[index] = choice;
      void runtime.answered(index, q, choice);
      if (last) {
        state.location = 'result';
        result(true);
      } else {
        state.location = 'q' + (index + 2);
        void save();
        question(index + 1);
      }
    });
    show([
      el('h1', { text: quiz.title }),
      el('h2', { text: fill(quiz.ui.questionOf, { n: index + 1, total: total }) }),
      form,
    ]);
  }

  function result(justFinished) {
    var correct = correctCount();
    var ratio = correct / total;
    var passed = ratio >= quiz.mastery;
    var review = quiz.questions.map(function (q, i) {
      var mark = state.answers[i] === q.answer ? '✓ ' : '✗ ';
      return el('li', { text: mark + q.text + ' — ' + q.choices[q.answer] });
    });
    show([
      el('h1', { text: quiz.title }),
      el('p', {
        class: 'score',
        text: fill(quiz.ui.result, { correct: correct, total: total, percent: Math.round(ratio * 100) }),
      }),
      el('p', { text: passed ? quiz.ui.passed : quiz.ui.failed }),
      el('h2', { text: quiz.ui.review }),
      el('ul', {}, review),
    ]);
    if (justFinished && !state.finished) {
      state.finished = true;
      runtime.finish(correct, total, passed, state.answers).catch(function () {
        say(quiz.ui.saveFailed);
      });
    }
  }

  say(quiz.ui.loading);
  runtime.start().then(
    function (saved) {
      say(saved.tracked ? '' : quiz.ui.noLms);
      state.answers = Array.isArray(saved.answers) ? saved.answers : [];
      state.finished = Boolean(saved.finished);
      state.location = saved.location || 'intro';
      var match = /^q(\d+)$/.exec(state.location);
      if (state.finished || state.location === 'result') result(false);
      else if (match && Number(match[1]) >= 1 && Number(match[1]) <= total) {
        if (saved.tracked) say(quiz.ui.resumeNote);
        question(Number(match[1]) - 1);
      } else intro();
    },
    function () {
      say(quiz.ui.noLms);
      intro();
    },
  );
  window.addEventListener('pagehide', function () {
    runtime.exit(state.finished);
  });
})();
