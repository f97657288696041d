/* global window, document, location */
/*
 * A HOSTILE package, for the browser journeys only (e2e/fixtures/package-tenant): it tries what
 * a malicious package would try to reach the learner's token or act as the learner, and writes
 * everything it got into #report (JSON) for the journey to check. Never part of the demo.
 */
(function () {
  'use strict';
  var report = { done: false };
  var received = [];

  function attempt(name, read) {
    try {
      var value = read();
      report[name] = { ok: true, value: value === undefined ? null : value };
    } catch (e) {
      report[name] = { ok: false, error: e && e.name ? e.name : String(e) };
    }
  }

  function request(name, target, init) {
    return fetch(target, init).then(
      function (response) {
        return response.text().then(function (body) {
          report[name] = { ok: true, status: response.status, body: body.slice(0, 500) };
        });
      },
      function (e) {
        report[name] = { ok: false, error: e && e.name ? e.name : String(e) };
      },
    );
  }

  window.addEventListener('message', function (event) {
    received.push({ origin: event.origin, data: event.data });
  });

  var ancestors = location.ancestorOrigins ? Array.prototype.slice.call(location.ancestorOrigins) : [];
  var app = ancestors.length ? ancestors[ancestors.length - 1] : '';
  report.ancestorOrigins = ancestors;

  // The app's storage and page, through every window above this one.
  attempt('topLocalStorage', function () {
    var out = {};
    for (var i = 0; i < window.top.localStorage.length; i++) {
      var key = window.top.localStorage.key(i);
      out[key] = window.top.localStorage.getItem(key);
    }
    return out;
  });
  attempt('topToken', function () {
    return window.top.localStorage.getItem('parcours.token');
  });
  attempt('topSessionStorage', function () {
    return window.top.sessionStorage.length;
  });
  attempt('topDocument', function () {
    return window.top.document.documentElement.outerHTML.slice(0, 200);
  });
  attempt('topCookie', function () {
    return window.top.document.cookie;
  });
  attempt('parentLocalStorage', function () {
    var out = {};
    for (var i = 0; i < window.parent.localStorage.length; i++) {
      var key = window.parent.localStorage.key(i);
      out[key] = window.parent.localStorage.getItem(key);
    }
    return out;
  });
  attempt('parentLocation', function () {
    return window.parent.location.href;
  });
  // This origin's own storage and cookies (the app's cookie is HttpOnly and the app's storage is not here).
  attempt('ownLocalStorage', function () {
    var out = {};
    for (var i = 0; i < localStorage.length; i++)
      out[localStorage.key(i)] = localStorage.getItem(localStorage.key(i));
    return out;
  });
  attempt('ownCookie', function () {
    return document.cookie;
  });

  // Everything the SCORM API hands out.
  attempt('scorm', function () {
    var api = window.PARCOURS_FIND_API('API');
    if (!api) return 'no API';
    var out = { initialize: api.LMSInitialize('') };
    [
      'cmi.core.student_id',
      'cmi.core.student_name',
      'cmi.core.lesson_location',
      'cmi.core.credit',
      'cmi.core.entry',
      'cmi.suspend_data',
      'cmi.launch_data',
      'cmi.core._children',
      'cmi.token',
      'cmi.core.token',
      'adl.token',
    ].forEach(function (name) {
      out[name] = { value: api.LMSGetValue(name), error: api.LMSGetLastError() };
    });
    var own = {};
    Object.keys(api).forEach(function (key) {
      var value = api[key];
      if (typeof value === 'function') return;
      try {
        own[key] = JSON.parse(JSON.stringify(value));
      } catch {
        own[key] = String(value);
      }
    });
    out.ownProperties = own;
    return out;
  });

  // Messages: pose as the bridge to the player, and ask the app for anything.
  attempt('postToTop', function () {
    window.top.postMessage({ source: 'parcours-package', type: 'terminated' }, '*');
    window.top.postMessage({ source: 'parcours-package', type: 'ready' }, '*');
    window.top.postMessage({ type: 'token' }, '*');
    window.top.postMessage('action:close', '*');
    return 'posted';
  });

  var credential = '';
  try {
    credential = decodeURIComponent((window.parent.location.hash || '').replace(/^#/, ''));
  } catch {
    credential = '';
  }
  report.bridgeFragment = credential;

  var calls = [];
  if (app) {
    calls.push(request('appApiWithCookies', app + '/api/users/me', { credentials: 'include' }));
    calls.push(request('appPageWithCookies', app + '/', { credentials: 'include' }));
    calls.push(request('appLessonsWithCookies', app + '/api/lessons', { credentials: 'include' }));
    // The launch credential in the bridge's address, tried as a bearer token on the app's API.
    var bearer = credential.split('&').map(function (part) {
      return part.split('=').slice(1).join('=') || part;
    })[0];
    calls.push(
      request('appApiWithLaunchCredential', app + '/api/users/me', {
        headers: { Authorization: 'Bearer ' + bearer },
      }),
    );
  }

  Promise.all(calls).then(function () {
    // Last: top navigation away from the app (a phishing page in its place).
    attempt('topNavigation', function () {
      window.top.location.href = 'about:blank#hijacked';
      return 'asked';
    });
    // Let any answer to the messages above arrive before writing the report.
    setTimeout(function () {
      report.received = received;
      report.done = true;
      var out = document.getElementById('report');
      out.textContent = JSON.stringify(report, null, 2);
      document.getElementById('status').textContent = 'Probe finished';
    }, 1000);
  });
})();
