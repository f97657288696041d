/* global window */
/*
 * The quiz's runtime for SCORM 1.2 (API: LMSInitialize, LMSGetValue, LMSSetValue, LMSCommit,
 * LMSFinish). Bookmark in cmi.core.lesson_location, answers in cmi.suspend_data, score as
 * raw/min/max, lesson_status passed or failed against the manifest's mastery score.
 */
(function () {
  'use strict';
  var api = null;
  var finished = false;
  var startedAt = Date.now();

  function get(name) {
    return String(api.LMSGetValue(name) || '');
  }
  function set(name, value) {
    return api.LMSSetValue(name, String(value)) === 'true';
  }
  function commit() {
    return api.LMSCommit('') === 'true'
      ? Promise.resolve()
      : Promise.reject(new Error(api.LMSGetLastError()));
  }
  /** SCORM 1.2 CMITimespan: HHHH:MM:SS.SS */
  function timespan(ms) {
    var s = Math.max(0, ms) / 1000;
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var sec = (s % 60).toFixed(2);
    return (
      (h < 10 ? '000' : h < 100 ? '00' : h < 1000 ? '0' : '') +
      h +
      ':' +
      (m < 10 ? '0' : '') +
      m +
      ':' +
      (Number(sec) < 10 ? '0' : '') +
      sec
    );
  }
  function finish() {
    if (!api || finished) return;
    finished = true;
    set('cmi.core.session_time', timespan(Date.now() - startedAt));
    api.LMSFinish('');
  }

  window.PARCOURS_RUNTIME = {
    start: function () {
      api = window.PARCOURS_FIND_API('API');
      if (!api || api.LMSInitialize('') !== 'true') {
        api = null;
        return Promise.resolve({ tracked: false });
      }
      var status = get('cmi.core.lesson_status');
      var answers = [];
      try {
        answers = JSON.parse(get('cmi.suspend_data') || '{}').answers || [];
      } catch {
        answers = [];
      }
      if (status === 'not attempted' || status === '') set('cmi.core.lesson_status', 'incomplete');
      return Promise.resolve({
        tracked: true,
        location: get('cmi.core.lesson_location'),
        answers: answers,
        finished: status === 'passed' || status === 'failed' || status === 'completed',
      });
    },
    save: function (location, answers) {
      if (!api || finished) return Promise.resolve();
      set('cmi.core.lesson_location', location);
      set('cmi.suspend_data', JSON.stringify({ answers: answers }));
      return commit();
    },
    answered: function (index, question, choice) {
      if (!api || finished) return Promise.resolve();
      var n = Number(get('cmi.interactions._count')) || 0;
      var prefix = 'cmi.interactions.' + n + '.';
      set(prefix + 'id', 'q' + (index + 1));
      set(prefix + 'type', 'choice');
      set(prefix + 'student_response', String.fromCharCode(97 + choice));
      set(prefix + 'correct_responses.0.pattern', String.fromCharCode(97 + question.answer));
      set(prefix + 'result', choice === question.answer ? 'correct' : 'wrong');
      return Promise.resolve();
    },
    finish: function (correct, total, passed, answers) {
      if (!api || finished) return Promise.resolve();
      set('cmi.core.lesson_location', 'result');
      set('cmi.suspend_data', JSON.stringify({ answers: answers }));
      set('cmi.core.score.min', 0);
      set('cmi.core.score.max', total);
      set('cmi.core.score.raw', correct);
      set('cmi.core.lesson_status', passed ? 'passed' : 'failed');
      set('cmi.core.exit', '');
      return commit().then(finish);
    },
    /** Leaving (the player closed the dialog, or the page went away): a learner who comes back resumes. */
    exit: function (done) {
      if (!api || finished) return;
      if (!done) set('cmi.core.exit', 'suspend');
      finish();
    },
  };
})();
