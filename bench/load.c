// Closed-loop load generator for the RPC bench: N keep-alive connections, each with one
// JSON-RPC request in flight (HTTP POST or WebSocket text frame), for a fixed time.
// Written in C with epoll so that the loader costs less CPU per request than the servers
// it measures (a Node.js loader costs more than uWebSockets.js itself).
//
//   load http|ws <host> <port> <path> <connections> <seconds> <body>
// prints {"requests":n,"rps":x,"p50":ms,"p99":ms,"errors":n,"error":"first error"}
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BUFFER_SIZE (1 << 16)

enum phase { UPGRADING, READY, DONE };

struct connection {
  int fd;
  enum phase phase;
  size_t used;
  uint64_t sent_at;
  char buffer[BUFFER_SIZE];
};

static int websocket;
static char *request;
static size_t request_length;
static uint32_t *latencies;
static size_t latency_count, latency_capacity;
static uint64_t errors;
static char first_error[200];

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void fail(const char *what) {
  fprintf(stderr, "load: %s: %s\n", what, strerror(errno));
  exit(2);
}

static void error(const char *what, const char *data, size_t length) {
  if (errors++ == 0) snprintf(first_error, sizeof first_error, "%s: %.*s", what, (int)(length > 120 ? 120 : length), data);
}

static void record(uint64_t nanoseconds) {
  if (latency_count == latency_capacity) {
    latency_capacity = latency_capacity ? latency_capacity * 2 : 1 << 16;
    latencies = realloc(latencies, latency_capacity * sizeof *latencies);
    if (!latencies) fail("realloc");
  }
  latencies[latency_count++] = (uint32_t)(nanoseconds / 1000);
}

static void send_all(struct connection *c, const char *data, size_t length) {
  while (length > 0) {
    ssize_t n = write(c->fd, data, length);
    if (n < 0 && errno == EINTR) continue;
    // requests are a few hundred bytes on an idle connection: the socket buffer always takes them
    if (n <= 0) fail("write");
    data += n;
    length -= (size_t)n;
  }
}

static void fire(struct connection *c, uint64_t end) {
  uint64_t t = now_ns();
  if (t >= end) {
    c->phase = DONE;
    close(c->fd);
    return;
  }
  c->sent_at = t;
  send_all(c, request, request_length);
}

/** Length of one complete HTTP response at the buffer's start, 0 while incomplete. */
static size_t http_response(struct connection *c) {
  char *start = c->buffer;
  char *headers_end = memmem(start, c->used, "\r\n\r\n", 4);
  if (!headers_end) return 0;
  size_t header_length = (size_t)(headers_end - start) + 4;
  char saved = *headers_end;
  *headers_end = '\0';
  char *length_header = strcasestr(start, "\r\ncontent-length:");
  int chunked = strcasestr(start, "\r\ntransfer-encoding: chunked") != NULL;
  *headers_end = saved;
  if (length_header) {
    size_t total = header_length + strtoul(length_header + 17, NULL, 10);
    return c->used >= total ? total : 0;
  }
  if (!chunked) return header_length;
  size_t at = header_length;
  for (;;) {
    char *line_end = memmem(start + at, c->used - at, "\r\n", 2);
    if (!line_end) return 0;
    size_t size = strtoul(start + at, NULL, 16);
    at = (size_t)(line_end - start) + 2 + size + 2;
    if (at > c->used) return 0;
    if (size == 0) return at;
  }
}

/* A JSON-RPC result, and not an application's error answered as one ({"result":{"error":...}}, as Klayr Core's ABI answers). */
static int is_result(const char *body, size_t length) {
  return memmem(body, length, "\"result\"", 8) != NULL && memmem(body, length, "\"result\":{\"error\"", 17) == NULL;
}

static void on_http(struct connection *c, uint64_t end) {
  size_t length;
  while (c->phase == READY && (length = http_response(c)) > 0) {
    record(now_ns() - c->sent_at);
    if (strncmp(c->buffer, "HTTP/1.1 200", 12) != 0) error("status", c->buffer, length);
    else if (!is_result(c->buffer, length)) {
      char *body = (char *)memmem(c->buffer, length, "\r\n\r\n", 4) + 4;
      error("not a JSON-RPC result", body, length - (size_t)(body - c->buffer));
    }
    memmove(c->buffer, c->buffer + length, c->used - length);
    c->used -= length;
    fire(c, end);
  }
}

static void on_ws(struct connection *c, uint64_t end) {
  if (c->phase == UPGRADING) {
    char *headers_end = memmem(c->buffer, c->used, "\r\n\r\n", 4);
    if (!headers_end) return;
    if (strncmp(c->buffer, "HTTP/1.1 101", 12) != 0) {
      error("upgrade refused", c->buffer, c->used);
      c->phase = DONE;
      close(c->fd);
      return;
    }
    size_t header_length = (size_t)(headers_end - c->buffer) + 4;
    memmove(c->buffer, c->buffer + header_length, c->used - header_length);
    c->used -= header_length;
    c->phase = READY;
    fire(c, end);
  }
  while (c->phase == READY && c->used >= 2) {
    unsigned char *frame = (unsigned char *)c->buffer;
    size_t length = frame[1] & 0x7f, header = 2;
    if (length == 126) {
      if (c->used < 4) return;
      length = ((size_t)frame[2] << 8) | frame[3];
      header = 4;
    } else if (length == 127) {
      if (c->used < 10) return;
      length = 0;
      for (int i = 2; i < 10; i++) length = (length << 8) | frame[i];
      header = 10;
    }
    if (c->used < header + length) return;
    int opcode = frame[0] & 0x0f;
    if (opcode == 0x9) {
      // servers that check liveness (Klayr's) ping their clients: answer with the same payload
      char pong[6 + 125];
      if (length > 125) length = 125;
      pong[0] = (char)0x8a;
      pong[1] = (char)(0x80 | length);
      memset(pong + 2, 0, 4);
      memcpy(pong + 6, frame + header, length);
      send_all(c, pong, 6 + length);
    } else if (opcode == 0x8) {
      error("the server closed the connection", (char *)frame + header, length);
      c->phase = DONE;
      close(c->fd);
      return;
    } else if (opcode == 0x1 || opcode == 0x2) {
      record(now_ns() - c->sent_at);
      if (!is_result((char *)frame + header, length)) error("not a JSON-RPC result", (char *)frame + header, length);
      memmove(c->buffer, c->buffer + header + length, c->used - header - length);
      c->used -= header + length;
      fire(c, end);
      continue;
    }
    memmove(c->buffer, c->buffer + header + length, c->used - header - length);
    c->used -= header + length;
  }
}

static int compare(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static double percentile_ms(double p) {
  if (latency_count == 0) return 0;
  size_t i = (size_t)(p / 100 * (double)latency_count);
  if (i >= latency_count) i = latency_count - 1;
  return latencies[i] / 1000.0;
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: load http|ws <host> <port> <path> <connections> <seconds> <body>\n");
    return 2;
  }
  websocket = strcmp(argv[1], "ws") == 0;
  const char *host = argv[2], *path = argv[4], *body = argv[7];
  int port = atoi(argv[3]), count = atoi(argv[5]);
  double seconds = atof(argv[6]);
  size_t body_length = strlen(body);

  if (websocket) {
    if (body_length > 125) {
      fprintf(stderr, "load: the WebSocket body must fit a 7-bit frame length\n");
      return 2;
    }
    // a zero masking key leaves the payload as it is
    request_length = 6 + body_length;
    request = malloc(request_length);
    request[0] = (char)0x81;
    request[1] = (char)(0x80 | body_length);
    memset(request + 2, 0, 4);
    memcpy(request + 6, body, body_length);
  } else {
    request_length = (size_t)asprintf(&request, "POST %s HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s", path, host, port, body_length, body);
  }

  int epoll = epoll_create1(0);
  if (epoll < 0) fail("epoll_create1");
  struct connection *connections = calloc((size_t)count, sizeof *connections);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
    fprintf(stderr, "load: host must be an IPv4 address\n");
    return 2;
  }
  uint64_t start = now_ns(), end = start + (uint64_t)(seconds * 1e9);
  for (int i = 0; i < count; i++) {
    struct connection *c = &connections[i];
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0) fail("socket");
    if (connect(c->fd, (struct sockaddr *)&address, sizeof address) != 0) fail("connect");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
    if (epoll_ctl(epoll, EPOLL_CTL_ADD, c->fd, &event) != 0) fail("epoll_ctl");
    if (websocket) {
      char upgrade[512];
      int n = snprintf(upgrade, sizeof upgrade, "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: a2VzdHJlbC1sb2FkLWtleQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", path, host, port);
      c->phase = UPGRADING;
      send_all(c, upgrade, (size_t)n);
    } else {
      c->phase = READY;
      fire(c, end);
    }
  }

  int open = count;
  struct epoll_event events[64];
  while (open > 0) {
    int n = epoll_wait(epoll, events, 64, 1000);
    if (n < 0 && errno != EINTR) fail("epoll_wait");
    for (int i = 0; i < n; i++) {
      struct connection *c = events[i].data.ptr;
      if (c->phase == DONE) continue;
      ssize_t got = read(c->fd, c->buffer + c->used, BUFFER_SIZE - c->used);
      if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (got <= 0) {
        error("connection closed by the server", "", 0);
        c->phase = DONE;
        close(c->fd);
      } else {
        c->used += (size_t)got;
        if (websocket) on_ws(c, end);
        else on_http(c, end);
        if (c->used == BUFFER_SIZE) {
          error("response larger than the buffer", c->buffer, 64);
          c->phase = DONE;
          close(c->fd);
        }
      }
      if (c->phase == DONE) open--;
    }
    if (now_ns() > end + 5000000000u) break;  // a server that stopped answering
  }

  double elapsed = (double)(now_ns() - start) / 1e9;
  qsort(latencies, latency_count, sizeof *latencies, compare);
  printf("{\"requests\":%zu,\"rps\":%.1f,\"p50\":%.3f,\"p99\":%.3f,\"errors\":%llu,\"error\":\"", latency_count, (double)latency_count / elapsed, percentile_ms(50), percentile_ms(99), (unsigned long long)errors);
  for (const char *p = first_error; *p; p++) {
    if (*p == '"' || *p == '\\') putchar('\\');
    putchar((unsigned char)*p < 0x20 ? ' ' : *p);
  }
  printf("\"}\n");
  return 0;
}
