/* global window */
/*
 * The quiz's runtime for SCORM 2004 4th edition (API_1484_11: Initialize, GetValue, SetValue,
 * Commit, Terminate). Bookmark in cmi.location, answers in cmi.suspend_data, score as
 * scaled/raw/min/max, completion_status and success_status set by the SCO itself.
 */
(function () {
  'use strict';
  var api = null;
  var finished = false;
  var startedAt = Date.now();

  function get(name) {
    return String(api.GetValue(name) || '');
  }
  function set(name, value) {
    return api.SetValue(name, String(value)) === 'true';
  }
  function commit() {
    return api.Commit('') === 'true' ? Promise.resolve() : Promise.reject(new Error(api.GetLastError()));
  }
  /** SCORM 2004 timeinterval (ISO 8601 duration), to the hundredth of a second. */
  function duration(ms) {
    return 'PT' + (Math.max(0, ms) / 1000).toFixed(2) + 'S';
  }
  function terminate() {
    if (!api || finished) return;
    finished = true;
    set('cmi.session_time', duration(Date.now() - startedAt));
    api.Terminate('');
  }

  window.PARCOURS_RUNTIME = {
    start: function () {
      api = window.PARCOURS_FIND_API('API_1484_11');
      if (!api || api.Initialize('') !== 'true') {
        api = null;
        return Promise.resolve({ tracked: false });
      }
      var completion = get('cmi.completion_status');
      var answers = [];
      try {
        answers = JSON.parse(get('cmi.suspend_data') || '{}').answers || [];
      } catch {
        answers = [];
      }
      if (completion !== 'completed') set('cmi.completion_status', 'incomplete');
      return Promise.resolve({
        tracked: true,
        location: get('cmi.location'),
        answers: answers,
        finished: completion === 'completed',
      });
    },
    save: function (location, answers) {
      if (!api || finished) return Promise.resolve();
      set('cmi.location', location);
      set('cmi.suspend_data', JSON.stringify({ answers: answers }));
      var total = window.PARCOURS_QUIZ.questions.length;
      var match = /^q(\d+)$/.exec(location);
      if (match) set('cmi.progress_measure', ((Number(match[1]) - 1) / total).toFixed(2));
      return commit();
    },
    answered: function (index, question, choice) {
      if (!api || finished) return Promise.resolve();
      var n = Number(get('cmi.interactions._count')) || 0;
      var prefix = 'cmi.interactions.' + n + '.';
      set(prefix + 'id', 'q' + (index + 1));
      set(prefix + 'type', 'choice');
      set(prefix + 'description', question.text);
      set(prefix + 'correct_responses.0.pattern', 'c' + question.answer);
      set(prefix + 'learner_response', 'c' + choice);
      set(prefix + 'result', choice === question.answer ? 'correct' : 'incorrect');
      return Promise.resolve();
    },
    finish: function (correct, total, passed, answers) {
      if (!api || finished) return Promise.resolve();
      set('cmi.location', 'result');
      set('cmi.suspend_data', JSON.stringify({ answers: answers }));
      set('cmi.score.min', 0);
      set('cmi.score.max', total);
      set('cmi.score.raw', correct);
      set('cmi.score.scaled', (correct / total).toFixed(4));
      set('cmi.progress_measure', 1);
      set('cmi.success_status', passed ? 'passed' : 'failed');
      set('cmi.completion_status', 'completed');
      set('cmi.exit', 'normal');
      return commit().then(terminate);
    },
    /** Leaving before the end: suspended, so the next launch resumes (cmi.entry 'resume'). */
    exit: function (done) {
      if (!api || finished) return;
      if (!done) set('cmi.exit', 'suspend');
      terminate();
    },
  };
})();
