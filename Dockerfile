# cgigate in the official Apache httpd 2.4 image.
#   docker build -t cgigate-httpd .      (or: docker compose up --build)
# The gateway is then at http://HOST/cgi-bin/cgigate.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Static, so it runs in the httpd image whatever its libc; -tags cgionly
# leaves out what no CGI request runs (-http, -fcgi, export, deliver) and
# starts faster (README, "Deploying on Debian's Apache").
RUN CGO_ENABLED=0 go build -trimpath -tags cgionly -o /out/cgigate ./cmd/cgigate

FROM httpd:2.4
# The image's stock cgi-bin samples (printenv, test-cgi) are not wanted.
RUN rm -f /usr/local/apache2/cgi-bin/*
COPY --from=build /out/cgigate /usr/local/apache2/cgi-bin/cgigate
COPY httpdconf/httpd-image/cgigate.conf /usr/local/apache2/conf/extra/cgigate.conf
# The stock httpd.conf already has ScriptAlias /cgi-bin/; cgigate.conf loads
# the CGI module and holds the CGIGATE_* settings. Apache's children run as
# www-data, which must be able to write the recording folder.
RUN chmod 0755 /usr/local/apache2/cgi-bin/cgigate \
 && echo 'Include conf/extra/cgigate.conf' >> /usr/local/apache2/conf/httpd.conf \
 && mkdir -p /var/lib/cgigate/records \
 && chown www-data:www-data /var/lib/cgigate/records
EXPOSE 80
