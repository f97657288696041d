/* global window */
/*
 * The quiz's runtime for cmi5 (an AU): launch parameters from the address (endpoint, fetch,
 * registration, activityId, actor), the auth token from the fetch URL (once: kept for this
 * launch in sessionStorage), LMS.LaunchData from the State API, then the statements with the
 * launch's context template: initialized, answered (cmi5 allowed), passed or failed, completed,
 * terminated. The bookmark is a state document of its own. Plain fetch, no xAPI library.
 */
(function () {
  'use strict';
  var CMI5 = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
  var MOVE_ON = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
  var MASTERY = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
  var VERB = 'http://adlnet.gov/expapi/verbs/';
  var BOOKMARK = 'https://parcours.example/xapi/state/quiz-bookmark';

  var params = new URLSearchParams(window.location.search);
  var endpoint = params.get('endpoint') || '';
  var launch = null;
  var startedAt = Date.now();
  var terminated = false;
  var passedSent = false;
  // cmi5 §9.3: completed once a registration (a finished bookmark says it was sent), one of
  // passed or failed a session.
  var completedSent = false;
  var judgedThisSession = false;

  function url(path, query) {
    var base = endpoint.charAt(endpoint.length - 1) === '/' ? endpoint : endpoint + '/';
    return base + path + (query ? '?' + new URLSearchParams(query).toString() : '');
  }

  function headers(json) {
    var h = { Authorization: launch.auth, 'X-Experience-API-Version': '1.0.3' };
    if (json) h['Content-Type'] = 'application/json';
    return h;
  }

  function uuid() {
    if (crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map
      .call(b, function (x) {
        return (x + 0x100).toString(16).slice(1);
      })
      .join('');
    return (
      hex.slice(0, 8) +
      '-' +
      hex.slice(8, 12) +
      '-' +
      hex.slice(12, 16) +
      '-' +
      hex.slice(16, 20) +
      '-' +
      hex.slice(20)
    );
  }

  function duration() {
    return 'PT' + ((Date.now() - startedAt) / 1000).toFixed(2) + 'S';
  }

  function stateQuery(stateId) {
    return {
      stateId: stateId,
      activityId: launch.activityId,
      agent: JSON.stringify(launch.actor),
      registration: launch.registration,
    };
  }

  /** The auth token: asked once from the fetch URL, kept for this launch (a reload of the AU reuses it). */
  function authToken(fetchUrl) {
    var key = 'parcours.cmi5.auth:' + fetchUrl;
    var kept = sessionStorage.getItem(key);
    if (kept) return Promise.resolve(kept);
    return fetch(fetchUrl, { method: 'POST' })
      .then(function (response) {
        if (!response.ok) throw new Error('fetch URL ' + response.status);
        return response.json();
      })
      .then(function (body) {
        if (!body || typeof body['auth-token'] !== 'string') throw new Error('no auth-token');
        var auth = 'Basic ' + body['auth-token'];
        sessionStorage.setItem(key, auth);
        return auth;
      });
  }

  function getState(stateId) {
    return fetch(url('activities/state', stateQuery(stateId)), { headers: headers(false) }).then(
      function (r) {
        if (r.status === 404) return null;
        if (!r.ok) throw new Error('state ' + r.status);
        return r.json();
      },
    );
  }

  function putState(stateId, value) {
    return fetch(url('activities/state', stateQuery(stateId)), {
      method: 'PUT',
      headers: headers(true),
      body: JSON.stringify(value),
    }).then(function (r) {
      if (!r.ok) throw new Error('state ' + r.status);
    });
  }

  /** A statement with the launch's context template; cmi5 defined ones carry the cmi5 category. */
  function statement(verb, options) {
    var context = JSON.parse(JSON.stringify(launch.data.contextTemplate || {}));
    context.registration = launch.registration;
    context.contextActivities = context.contextActivities || {};
    if (options.categories) {
      context.contextActivities.category = (context.contextActivities.category || []).concat(
        options.categories.map(function (id) {
          return { id: id, objectType: 'Activity' };
        }),
      );
    }
    if (options.extensions) {
      context.extensions = Object.assign({}, context.extensions || {}, options.extensions);
    }
    var s = {
      id: uuid(),
      timestamp: new Date().toISOString(),
      actor: launch.actor,
      verb: { id: VERB + verb, display: { 'en-US': verb } },
      object: options.object || { objectType: 'Activity', id: launch.activityId },
      context: context,
    };
    if (options.result) s.result = options.result;
    return s;
  }

  function send(statements, keepalive) {
    return fetch(url('statements'), {
      method: 'POST',
      headers: headers(true),
      body: JSON.stringify(statements),
      keepalive: Boolean(keepalive),
    }).then(function (r) {
      if (!r.ok) throw new Error('statements ' + r.status);
    });
  }

  function normal() {
    return launch && launch.data.launchMode === 'Normal';
  }

  function terminate(keepalive) {
    if (!launch || terminated) return Promise.resolve();
    terminated = true;
    if (!normal()) return Promise.resolve();
    return send(
      [statement('terminated', { categories: [CMI5], result: { duration: duration() } })],
      keepalive,
    );
  }

  window.PARCOURS_RUNTIME = {
    start: function () {
      var fetchUrl = params.get('fetch');
      var actor;
      try {
        actor = JSON.parse(params.get('actor') || 'null');
      } catch {
        actor = null;
      }
      if (!endpoint || !fetchUrl || !actor || !params.get('registration') || !params.get('activityId'))
        return Promise.resolve({ tracked: false });
      return authToken(fetchUrl).then(function (auth) {
        launch = {
          auth: auth,
          actor: actor,
          registration: params.get('registration'),
          activityId: params.get('activityId'),
          data: {},
        };
        return getState('LMS.LaunchData')
          .then(function (data) {
            if (!data || !data.contextTemplate) throw new Error('no LMS.LaunchData');
            launch.data = data;
            // cmi5 §11: the learner preferences are read before initialized.
            return fetch(
              url('agents/profile', {
                profileId: 'cmi5LearnerPreferences',
                agent: JSON.stringify(launch.actor),
              }),
              { headers: headers(false) },
            ).then(function () {
              return getState(BOOKMARK).catch(function () {
                return null;
              });
            });
          })
          .then(function (bookmark) {
            completedSent = Boolean(bookmark && bookmark.finished);
            var first = normal()
              ? send([statement('initialized', { categories: [CMI5] })])
              : Promise.resolve();
            return first.then(function () {
              var saved = bookmark || {};
              return {
                tracked: true,
                location: saved.location || '',
                answers: saved.answers || [],
                finished: Boolean(saved.finished),
              };
            });
          });
      });
    },
    save: function (location, answers) {
      if (!launch || terminated || !normal()) return Promise.resolve();
      return putState(BOOKMARK, { location: location, answers: answers, finished: false });
    },
    answered: function (index, question, choice) {
      if (!launch || terminated || !normal()) return Promise.resolve();
      var id = launch.activityId + '/questions/q' + (index + 1);
      return send([
        statement('answered', {
          object: {
            objectType: 'Activity',
            id: id,
            definition: {
              type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
              name: { [window.PARCOURS_QUIZ.lang]: question.text },
              interactionType: 'choice',
              correctResponsesPattern: ['c' + question.answer],
              choices: question.choices.map(function (text, c) {
                return { id: 'c' + c, description: { [window.PARCOURS_QUIZ.lang]: text } };
              }),
            },
          },
          result: { response: 'c' + choice, success: choice === question.answer },
        }),
      ]);
    },
    finish: function (correct, total, passed, answers) {
      if (!launch || terminated || !normal()) return Promise.resolve();
      var mastery = typeof launch.data.masteryScore === 'number' ? launch.data.masteryScore : null;
      var scaled = Math.round((correct / total) * 10000) / 10000;
      // The LMS's mastery score, when it gives one, decides passed or failed (cmi5 §9.3.4).
      var success = mastery === null ? passed : scaled >= mastery;
      var judged = statement(success ? 'passed' : 'failed', {
        categories: [CMI5, MOVE_ON],
        extensions: mastery === null ? null : { [MASTERY]: mastery },
        result: {
          score: { scaled: scaled, raw: correct, min: 0, max: total },
          success: success,
          duration: duration(),
        },
      });
      var completed = statement('completed', {
        categories: [CMI5, MOVE_ON],
        result: { completion: true, duration: duration() },
      });
      // A cmi5 AU sends passed once: a failed attempt may be followed by a passed one (in a later
      // session), not the reverse; completed once a registration.
      var judgedOnce = passedSent || judgedThisSession ? [] : [judged];
      passedSent = passedSent || success;
      judgedThisSession = true;
      var completedOnce = completedSent ? [] : [completed];
      completedSent = true;
      return putState(BOOKMARK, { location: 'result', answers: answers, finished: true })
        .then(function () {
          return send(judgedOnce.concat(completedOnce));
        })
        .then(function () {
          return terminate(false);
        });
    },
    /** An AU whose moveOn is Completed (the course's checklist, issue 39): read, then done. */
    complete: function () {
      if (!launch || terminated || !normal()) return Promise.resolve();
      var first = completedSent
        ? Promise.resolve()
        : send([
            statement('completed', {
              categories: [CMI5, MOVE_ON],
              result: { completion: true, duration: duration() },
            }),
          ]);
      completedSent = true;
      return putState(BOOKMARK, { location: 'done', answers: [], finished: true }).then(function () {
        return first.then(function () {
          return terminate(false);
        });
      });
    },
    exit: function () {
      void terminate(true);
    },
  };
})();
